/**
 * What the commands an agent ran teach: a command that failed and the one that then did the
 * same job (`yarn test` failed, `npm test` passed). The working one is a playbook; the failed
 * one is kept as a failed attempt ("Did not work: …"), its own kind, never a fact about the
 * project. Only the tool lines are read (what was run and whether the importer marked it failed,
 * `→ error` or `→ exit N`), never their output. A failure followed by an edit is a bug being
 * fixed, not a wrong command, and gives nothing.
 */

import type { Transcript } from './rulesTranscript';

/** A failed attempt and what replaced it, with the tool lines (`turn:line`) they came from. */
export interface Attempt {
  failed: string;
  worked: string;
  /** The job both commands did, for the playbook's name: "Run the tests". */
  name: string;
  lines: string[];
}

/** Tools that run a shell command, across the importers. */
const SHELL_TOOL =
  /^(?:bash|shell|exec_command|local_shell|run_terminal_cmd|run_command|execute_command|run_shell_command|terminal|command)$/i;
/** Tools that change files: a failure they follow was fixed in the code. */
const EDIT_TOOL = /edit|write|patch|replace|create|insert|delete|rename|move/i;
/** Programs whose first word names the job (`npm test`, `cargo build`). */
const RUNNERS = new Set([
  'npm',
  'yarn',
  'pnpm',
  'bun',
  'npx',
  'bunx',
  'cargo',
  'go',
  'make',
  'just',
  'poetry',
  'uv',
  'pip',
  'pip3',
  'dotnet',
  'gradle',
  'gradlew',
  'mvn',
  'deno',
  'mix',
  'bundle',
  'rake',
  'composer',
  'swift',
  'tox',
  'nox',
  'hatch',
  'pdm',
  'rye',
]);
/** Programs that are the job themselves. */
const JOB_OF_PROGRAM: Record<string, string> = {
  pytest: 'test',
  jest: 'test',
  vitest: 'test',
  mocha: 'test',
  tsc: 'typecheck',
  mypy: 'typecheck',
  pyright: 'typecheck',
  eslint: 'lint',
  ruff: 'lint',
  flake8: 'lint',
  clippy: 'lint',
  prettier: 'format',
  black: 'format',
};
const JOB_SYNONYMS: Record<string, string> = {
  t: 'test',
  tests: 'test',
  b: 'build',
  compile: 'build',
  i: 'install',
  ci: 'install',
  add: 'install',
  fmt: 'format',
  'type-check': 'typecheck',
  typecheck: 'typecheck',
  clippy: 'lint',
};
const NAME_OF_JOB: Record<string, string> = {
  test: 'Run the tests',
  build: 'Build',
  lint: 'Lint',
  typecheck: 'Type-check',
  format: 'Format the code',
  install: 'Install dependencies',
  start: 'Start the app',
  dev: 'Start the dev server',
  serve: 'Start the server',
};
/** Jobs that are not worth a playbook (looking around, version control). */
const NO_JOB = new Set(['', 'run', 'exec', 'x', 'help', 'version', '--version', 'init']);
/** How many tool calls after a failure the replacement may come. */
const WINDOW = 6;
const MAX_COMMAND_CHARS = 160;

/** The failed attempts of a conversation and the commands that replaced them. */
export function attemptsOf(transcript: Transcript): Attempt[] {
  const calls = transcript.turns.flatMap((turn, t) =>
    turn.role === 'agent'
      ? turn.tools.map((tool) => ({ ...tool, turn: t, command: SHELL_TOOL.test(tool.name) ? commandOf(tool.input) : undefined }))
      : [],
  );
  const out: Attempt[] = [];
  const used = new Set<number>();
  calls.forEach((call, c) => {
    if (!call.failed || !call.command || used.has(c)) return;
    const job = jobOf(call.command);
    if (!job) return;
    for (let n = c + 1; n < calls.length && n <= c + WINDOW; n++) {
      const next = calls[n];
      // A person spoke in between, or a file changed: the failure was not about the command.
      if (next.turn !== call.turn && transcript.turns.slice(call.turn + 1, next.turn + 1).some((turn) => turn.role === 'user')) return;
      if (!next.command) {
        if (EDIT_TOOL.test(next.name)) return;
        continue;
      }
      if (jobOf(next.command) !== job || next.command === call.command) continue;
      // `--port 3000` failed, `--port 3001` worked: the port was busy that day; the approach was not wrong.
      if (onlyNumbersDiffer(call.command, next.command)) return;
      if (next.failed) {
        used.add(n);
        continue;
      }
      out.push({
        failed: call.command,
        worked: next.command,
        name: NAME_OF_JOB[job] ?? `Run ${job}`,
        lines: [`${call.turn}:${call.index}`, `${next.turn}:${next.index}`],
      });
      return;
    }
  });
  return out;
}

/**
 * The command as a reader would rerun it: without a leading `cd <dir> &&` (which also keeps the
 * person's home folder out of the item); none when it is cut short, multi-line or too long.
 */
export function commandOf(input: string): string | undefined {
  const command = input.replace(/^(?:cd\s+\S+\s*(?:&&|;)\s*)+/, '').trim();
  if (!command || command.endsWith('…') || /<<|\n/.test(command) || command.length > MAX_COMMAND_CHARS) return undefined;
  return command;
}

/** Whether two commands differ only in their numbers (a port, a PID, a count). */
function onlyNumbersDiffer(a: string, b: string): boolean {
  return a.replace(/\d+/g, '#') === b.replace(/\d+/g, '#');
}

/** The job a command does (`test`, `build`, a script's name), if it is one worth a playbook. */
export function jobOf(command: string): string | undefined {
  const words = command
    .split(/\s*(?:&&|\|\||;|\|)\s*/)[0]
    .split(/\s+/)
    .filter((word) => !/^\w+=/.test(word) && word !== 'sudo');
  const program = (words[0] ?? '').replace(/^.*\//, '');
  const args = words.slice(1).filter((word) => !word.startsWith('-'));
  let job: string | undefined;
  if (JOB_OF_PROGRAM[program]) job = JOB_OF_PROGRAM[program];
  else if (/^python[\d.]*$/.test(program) && words[1] === '-m') job = words[2];
  else if (/^python[\d.]*$/.test(program) || program === 'node') job = args[0]?.replace(/^.*\//, '');
  else if (RUNNERS.has(program)) job = args[0] === 'run' || args[0] === 'run-script' ? args[1] : args[0];
  if (job === undefined) return undefined;
  const normal = JOB_SYNONYMS[job] ?? JOB_OF_PROGRAM[job] ?? job;
  return NO_JOB.has(normal) || !/^[\w:.-]+$/.test(normal) ? undefined : normal;
}
