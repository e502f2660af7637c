/**
 * `lore hook` over a whole Claude Code session, fed the JSON Claude Code 2.x sends
 * (https://code.claude.com/docs/en/hooks, "Hook input": SessionStart with `source` and `model`,
 * UserPromptSubmit with `prompt`, both with `session_id`, `transcript_path`, `cwd`,
 * `permission_mode`): the digest once, at the start; each later prompt only what is new to the
 * session; nothing when nothing is; a compaction or /clear starts over.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KNOWLEDGE_FRAMING } from '../../src/core/model/safety/dataFraming';
import { readSessionGiven } from '../../src/core/services/hooks/sessionGiven';
import { storePaths } from '../../src/core/store/storePaths';
import { makeWorkspace, runCli } from '../helpers/cli';

const SESSION = '4a1f7c2e-93b0-4d51-a8e6-0c2d9f5b7e13';

async function setup() {
  const { ws, root } = await makeWorkspace();
  const env = { LORE_ROOT: '', LORE_SEARCH_BACKEND: '', LORE_EMBED_PROVIDER: '' };
  fs.writeFileSync(path.join(ws, 'src', 'db.ts'), 'export const db = 1;\n');
  const transcript = path.join(ws, '..', 'claude-projects', `${SESSION}.jsonl`);
  const base = (sessionId: string) => ({
    session_id: sessionId,
    transcript_path: transcript,
    cwd: ws,
    permission_mode: 'default',
  });
  const hook = async (input: Record<string, unknown>, options: { spawn?: boolean } = {}) => {
    const result = await runCli(['hook'], { cwd: ws, env, input: JSON.stringify(input), spawn: options.spawn });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    if (!result.stdout) return '';
    const reply = JSON.parse(result.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    assert.equal(reply.hookSpecificOutput.hookEventName, input.hook_event_name);
    return reply.hookSpecificOutput.additionalContext;
  };
  const start = (source: string, sessionId = SESSION, options: { spawn?: boolean } = {}) =>
    hook({ ...base(sessionId), hook_event_name: 'SessionStart', source, model: 'claude-sonnet-4-5-20250929' }, options);
  const prompt = (text: string, sessionId = SESSION, options: { spawn?: boolean } = {}) =>
    hook({ ...base(sessionId), hook_event_name: 'UserPromptSubmit', prompt: text }, options);
  const cli = async (...args: string[]) => {
    const result = await runCli([...args, '--root', root], { cwd: ws, env });
    assert.equal(result.code, 0, result.stderr);
    return result;
  };
  fs.appendFileSync(
    path.join(root, 'decisions.md'),
    [
      '- Releases are published from CI only, never from a laptop [from: c1, 2026-11-20]',
      '- The database layer uses SQLite with WAL mode [from: c1, 2026-11-20]',
    ]
      .map((l) => `${l}\n`)
      .join(''),
  );
  fs.appendFileSync(
    path.join(root, 'facts.md'),
    [
      '- The release checklist lives in docs/release.md and names the npm publish step [from: c2, 2026-11-21]',
      '- The staging database is refreshed from production every night [from: c3, 2026-11-21]',
    ]
      .map((l) => `${l}\n`)
      .join(''),
  );
  // The digest holds the decisions; the facts are found by search.
  fs.writeFileSync(
    path.join(root, 'digest.md'),
    '# Knowledge digest\n\n## Decisions\n- Releases are published from CI only, never from a laptop [from: c1, 2026-11-20]\n- The database layer uses SQLite with WAL mode [from: c1, 2026-11-20]\n',
  );
  await cli('note', 'src/app.ts', 'app.ts wires the release command; keep it thin');
  await cli('note', 'src/db.ts', 'db.ts opens the database once per process');
  await cli('search', 'release'); // Builds the index, as lore search, lore mcp or the extension do.
  return { ws, root, env, start, prompt, cli };
}

describe('lore hook over a Claude Code session: the digest once, then only what is new', function () {
  this.timeout(60_000);

  it('a seven-prompt session: digest at the start, new notes and items per prompt with their ids, nothing when nothing is new, a compaction starts over', async () => {
    const { root, start, prompt, cli } = await setup();
    // SessionStart: the digest, byte-identical for every session on this store (it opens the cached prefix).
    const opening = await start('startup', SESSION, { spawn: true });
    assert.equal(await start('startup', 'another-session'), opening);
    assert.match(opening, /\{knowledge\}\n[\s\S]*Releases are published from CI only/);
    assert.ok(opening.includes(KNOWLEDGE_FRAMING));
    assert.ok(!opening.includes('\n{search-hits}\n') && !opening.includes('\n{file-notes}\n'));

    // 1: the notes of the file it names and the items that match it, not the digest again.
    const first = await prompt('How do we publish a release? The command is in src/app.ts', SESSION, { spawn: true });
    assert.ok(!first.includes('{knowledge}') && !first.includes('Releases are published from CI only'), 'the digest is not repeated');
    assert.match(
      first,
      /\{file-notes\}\n> Recorded project knowledge[^\n]*\n## src\/app\.ts\n- \[notes [0-9a-z]{8}\] app\.ts wires the release command/,
    );
    assert.match(
      first,
      /\{search-hits\}\n> Recorded project knowledge[^\n]*\n- \[facts [0-9a-z]{8}\] The release checklist lives in docs\/release\.md/,
    );

    // 2: the same question again: nothing new, so nothing at all (no header).
    assert.equal(await prompt('How do we publish a release? The command is in src/app.ts'), '');

    // 3: another file and topic: only what this session has not seen.
    const third = await prompt('Now the staging database in src/db.ts, and the release again');
    // The note of src/db.ts, given once: as a search hit of the first prompt or as the note of a file this one names.
    assert.equal([first, third].filter((t) => t.includes('db.ts opens the database once per process')).length, 1);
    assert.match(third, /The staging database is refreshed/);
    assert.ok(!third.includes('app.ts wires') && !third.includes('release checklist') && !third.includes('WAL mode'));

    // 4: small talk: nothing.
    assert.equal(await prompt('thanks, looks good'), '');

    // 5: something learned since (a new fact, the index refreshed): that, and only that.
    fs.appendFileSync(path.join(root, 'facts.md'), '- The release tag is signed with the team GPG key [from: c4, 2026-11-22]\n');
    await cli('search', 'release');
    const fifth = await prompt('What else do we know about the release tag?');
    assert.match(fifth, /\[facts [0-9a-z]{8}\] The release tag is signed/);
    assert.ok(!fifth.includes('release checklist'));

    // 6: a compaction drops what was given: the start gives the digest again, and prompts give again.
    const afterCompact = await start('compact');
    assert.equal(afterCompact, opening);
    const sixth = await prompt('How do we publish a release? The command is in src/app.ts');
    assert.match(sixth, /app\.ts wires the release command/);
    assert.match(sixth, /release checklist/);
    assert.ok(!sixth.includes('{knowledge}'));

    // 7: /clear likewise.
    await start('clear');
    assert.match(await prompt('the staging database again, please'), /The staging database is refreshed/);

    // Another session is not affected by this one's record.
    assert.match(await prompt('How do we publish a release? The command is in src/app.ts', 'another-session'), /release checklist/);
    assert.ok(readSessionGiven(storePaths(root), SESSION), 'the record is kept in the store cache');
  });

  it('a session Lore has not seen start gets the digest with its first prompt, once; a prompt without a session id never gets it', async () => {
    const { prompt, root } = await setup();
    const first = await prompt('How do we publish a release?', 'hooks-installed-mid-session');
    assert.match(first, /\{knowledge\}[\s\S]*Releases are published from CI only[\s\S]*\{search-hits\}[\s\S]*release checklist/);
    assert.equal(await prompt('How do we publish a release?', 'hooks-installed-mid-session'), '');
    const second = await prompt('and the database?', 'hooks-installed-mid-session');
    assert.ok(!second.includes('{knowledge}'));
    // No session id (an agent that sends none): the digest is taken as given at SessionStart.
    const ws = path.dirname(root);
    const bare = await runCli(['hook'], {
      cwd: ws,
      env: { LORE_ROOT: '', LORE_SEARCH_BACKEND: '', LORE_EMBED_PROVIDER: '' },
      input: JSON.stringify({ cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'How do we publish a release?' }),
    });
    const text = JSON.parse(bare.stdout).hookSpecificOutput.additionalContext as string;
    assert.ok(!text.includes('{knowledge}'));
    assert.match(text, /release checklist/);
  });

  it('two prompts of one session at once: both answered, and the record holds what each gave', async () => {
    const { root, prompt, start } = await setup();
    await start('startup');
    const [a, b] = await Promise.all([
      prompt('How do we publish a release? see src/app.ts', SESSION, { spawn: true }),
      prompt('How is the staging database refreshed? see src/db.ts', SESSION, { spawn: true }),
    ]);
    assert.match(a, /app\.ts wires the release command/);
    assert.match(b, /db\.ts opens the database/);
    const given = readSessionGiven(storePaths(root), SESSION)!;
    const ids = [...`${a}\n${b}`.matchAll(/\[(?:notes|facts|decisions) ([0-9a-z]{8})\]/g)].map((m) => m[1]);
    assert.ok(ids.length >= 4, ids.join(' '));
    for (const id of ids) assert.ok(given.has(id), `${id} recorded`);
    // Both recorded: asking again gives nothing.
    assert.equal(await prompt('How do we publish a release? see src/app.ts'), '');
    assert.equal(await prompt('How is the staging database refreshed? see src/db.ts'), '');
  });
});
