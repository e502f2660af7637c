/**
 * `lore notes PATH` shows a file's notes (healing the key after an inode change),
 * `lore notes --heal` checks every note file, `lore note PATH TEXT` adds a note by hand.
 */
import { addManualNote } from '../../core/store/items/manualNote';
import { redactSecrets } from '../../core/model/safety/redact';
import { findNotesForFile, healNotes, resolveNoteTarget } from '../../core/store/fileNotes';
import { regenerateDigest } from '../../core/store/digest';
import { loadStoreConfig } from '../../core/store/storeConfig';
import { acquireStoreLock } from '../../core/base/storeLock';
import { recordStoreChange } from '../../core/store/history/storeHistory';
import { storeRelative } from '../../core/store/storePaths';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, UsageError, printable, resolveArg, type Output } from '../cliSupport';
import { reportHistory } from '../historyText';

export const notesCommand = command({
  name: 'notes',
  usage: [
    { usage: 'PATH [--root DIR] [--json]', does: 'show the notes attached to a file' },
    {
      usage: '--heal [--root DIR]',
      does: 're-key notes whose file changed inode; move notes of\ndeleted files to facts.md as "path: note"',
    },
  ],
  options: { heal: { type: 'boolean' } },
  run: notes,
});
export const noteCommand = command({
  name: 'note',
  usage: [{ usage: 'PATH TEXT [--root DIR]', does: 'attach a note to a file ([from: manual, today])' }],
  options: {},
  run: note,
});

async function notes(parsed: Parsed<{ heal: { type: 'boolean' } }>, io: Output): Promise<number> {
  const { values, positionals, paths } = parsed;
  if (values.heal) {
    const lock = await acquireStoreLock(paths.root);
    try {
      const report = healNotes(paths);
      if (report.orphaned.length) regenerateDigest(paths, { enabled: loadStoreConfig(paths.config).config.digestEnabled, automatic: true });
      if (values.json) io.out(JSON.stringify(report, null, 2));
      else {
        for (const h of report.healed) io.out(`healed: ${printable(h.path)} (${h.from} → ${h.to})`);
        for (const o of report.orphaned) io.out(`moved to facts.md: ${o.notes} note(s) of ${printable(o.path)} (file is gone)`);
        if (!report.healed.length && !report.orphaned.length) io.out('all notes resolve to their files');
      }
      if (report.healed.length || report.orphaned.length) {
        const history = await recordStoreChange(paths, {
          type: 'maintenance',
          subject: `notes healed: ${report.healed.length} re-keyed, ${report.orphaned.length} moved to facts.md`,
        });
        if (!values.json) reportHistory(io, history);
      }
    } finally {
      lock.release();
    }
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError('lore notes takes one PATH (or --heal)');
  const file = resolveArg(io, positionals[0]);
  const found = findNotesForFile(paths, file);
  if (values.json) {
    io.out(
      JSON.stringify(
        found
          ? {
              noteFile: found.file,
              via: found.via,
              meta: found.note.meta,
              notes: found.note.notes.map((n) => ({ text: n.text, line: n.line, provenance: n.provenance })),
            }
          : { notes: [] },
        null,
        2,
      ),
    );
    return EXIT_OK;
  }
  if (!found || found.note.notes.length === 0) {
    io.out(`no notes for ${printable(positionals[0])}`);
    return EXIT_OK;
  }
  io.out(
    `# ${printable(found.note.meta.path || positionals[0])}  (${storeRelative(paths, found.file)}${found.via === 'inode' ? '' : `, re-found by ${found.via}`})`,
  );
  for (const note of found.note.notes) io.out(`- ${note.text}`);
  return EXIT_OK;
}

async function note(parsed: Parsed, io: Output): Promise<number> {
  const { values, positionals, paths } = parsed;
  if (positionals.length < 2) throw new UsageError('lore note takes a PATH and the note TEXT');
  const [target, ...words] = positionals;
  const text = redactSecrets(words.join(' ')).trim();
  if (!text) throw new UsageError('the note text is empty');
  const resolved = resolveNoteTarget(paths, resolveArg(io, target));
  if (resolved.kind === 'orphan') {
    io.err(`cannot attach a note to ${printable(target)}: ${printable(resolved.reason)} (workspace: ${paths.workspace})`);
    return EXIT_FAILED;
  }
  const { noteFile: file, history } = await addManualNote(paths, resolved, text);
  io.out(
    values.json
      ? JSON.stringify({ noteFile: file, path: resolved.relative })
      : `noted ${printable(resolved.relative)} in ${printable(storeRelative(paths, file))}`,
  );
  reportHistory(io, history);
  return EXIT_OK;
}
