/**
 * `lore hooks install|uninstall`: Lore's agent hooks in Claude Code's and VS Code's
 * configuration files (the merge rules are src/core/hooks/hookSettings.ts): capture hooks, context
 * hooks, or both (the default).
 */
import { parseArgs } from 'node:util';
import { currentHost } from '../../core/services/discovery/host';
import type { HookTool } from '../../core/services/hooks/hookCapture';
import { HOOK_KINDS, type HookKind } from '../../core/services/hooks/hookEvents';
import {
  hookEventsFor,
  installHooks,
  loreHookCommand,
  uninstallHooks,
  type HookScope,
  type HookSettingsChange,
} from '../../core/services/hooks/hookSettings';
import { storePaths } from '../../core/store/storePaths';
import { parseConfig, selfParsedCommand } from '../command';
import { EXIT_OK, UsageError, cwdOf, envOf, loreCliScript, printable, resolveArg, storeForFolder, type Output } from '../cliSupport';

const OPTIONS = {
  root: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  claude: { type: 'boolean', help: "Claude Code (install's default): .claude/settings.local.json, or ~/.claude/settings.json with --user" },
  vscode: { type: 'boolean', help: "VS Code's agent hooks: .github/hooks/lore.json (VS Code also runs the Claude Code files' hooks)" },
  workspace: { type: 'boolean', help: "the store's workspace (install's default)" },
  user: { type: 'boolean', help: 'every project of this user' },
  'capture-only': { type: 'boolean', help: "install only the capture hooks (Lore's context hooks in the file are removed)" },
  'context-only': { type: 'boolean', help: "install only the context hooks (Lore's capture hooks in the file are removed)" },
} as const;

// Parsed here, not from the declaration: --workspace is a scope, not the common --workspace DIR.
export const hooksCommand = selfParsedCommand({
  name: 'hooks',
  usage: [
    'install   [--claude | --vscode] [--user | --workspace] [--capture-only | --context-only]',
    'uninstall [--claude | --vscode] [--user | --workspace]',
  ],
  description: '\nWrites (or removes) the agent hooks that run "lore hook":',
  args: {
    'capture hooks':
      'when a session stops, ends or is about to be compacted, its conversation is queued\nfor harvest (Claude Code: SessionEnd, PreCompact, Stop; VS Code: PreCompact, Stop)',
    'context hooks': `when a session starts, and before each prompt, the agent gets the digest, the notes
of files the prompt names, the topics it activates and matching items (Claude Code:
SessionStart, UserPromptSubmit; VS Code: SessionStart, the event where it takes
context); Claude Code's PostToolUse (file tools only) records the files tool calls
touch, so the next prompt's topic globs see them`,
  },
  options: OPTIONS,
  epilogue: `Merged with what the file holds; running install twice changes nothing; uninstall removes only
Lore's own entries (by default from every file above). A file that is not valid JSON is left as it is.`,
  run: hooks,
});

async function hooks(argv: string[], io: Output, help: string): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: parseConfig(OPTIONS) as typeof OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.out(help);
    return EXIT_OK;
  }
  const paths = values.root !== undefined ? storePaths(resolveArg(io, values.root)) : storeForFolder(cwdOf(io), io);
  const [verb, ...extra] = positionals;
  if (verb !== 'install' && verb !== 'uninstall')
    throw new UsageError(verb ? `unknown action "${verb}"; use install or uninstall` : 'say install or uninstall');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (values.claude && values.vscode) throw new UsageError('choose one of --claude and --vscode');
  if (values.user && values.workspace) throw new UsageError('choose one of --user and --workspace');
  if (values['capture-only'] && values['context-only'])
    throw new UsageError('choose one of --capture-only and --context-only (or neither, for both)');
  if (verb === 'uninstall' && (values['capture-only'] || values['context-only'])) {
    throw new UsageError("uninstall removes all of Lore's hooks; to keep one kind, run install with --capture-only or --context-only");
  }
  const kinds: HookKind[] = values['capture-only'] ? ['capture'] : values['context-only'] ? ['context'] : [...HOOK_KINDS];
  const host = currentHost(envOf(io));
  const chosenTool: HookTool | undefined = values.claude ? 'claude' : values.vscode ? 'vscode' : undefined;
  const chosenScope: HookScope | undefined = values.user ? 'user' : values.workspace ? 'workspace' : undefined;
  if (verb === 'install') {
    const command = loreHookCommand(process.execPath, loreCliScript());
    const tool = chosenTool ?? 'claude';
    const change = installHooks(tool, chosenScope ?? 'workspace', paths.workspace, host, command, kinds);
    io.out(
      change.changed
        ? `wrote Lore's hooks to ${printable(change.file)}`
        : `${printable(change.file)} already has Lore's hooks; nothing changed`,
    );
    io.out(`events: ${hookEventsFor(tool, kinds).join(', ')}`);
    io.out(`they run: ${printable(command)}`);
    // .github/hooks/ is shared with the team through git, and this command holds this machine's paths.
    if (chosenTool === 'vscode') io.out(`note: keep ${printable(change.file)} out of git (its command holds paths of this machine)`);
    return EXIT_OK;
  }
  const changes: HookSettingsChange[] = [];
  for (const tool of chosenTool ? [chosenTool] : (['claude', 'vscode'] as const)) {
    for (const scope of chosenScope ? [chosenScope] : (['workspace', 'user'] as const)) {
      if (tool === 'vscode' && scope === 'user') continue; // The --claude --user file.
      changes.push(...uninstallHooks(tool, scope, paths.workspace, host));
    }
  }
  const removed = changes.filter((c) => c.changed);
  for (const change of removed) io.out(`removed Lore's hooks from ${printable(change.file)}`);
  if (!removed.length) io.out('no Lore hooks found; nothing changed');
  return EXIT_OK;
}
