/**
 * `lore notes PATH` shows a file's notes (writing nothing),
 * `lore notes --heal` checks every note file, `lore notes --migrate` renames an older Lore's note files, `lore note PATH TEXT` adds a note by hand.
 */
import { listItemId } from '../../core/model/itemId';
import { addManualNote } from '../../core/store/items/manualNote';
import { redactSecrets } from '../../core/model/safety/redact';
import { findNotesForFile, healNotes, resolveNoteTarget, workspaceRelative } from '../../core/store/fileNotes';
import { applyNoteMigration, planNoteMigration, type NoteRename } from '../../core/store/noteMigration';
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
      usage: '--migrate [--apply] [--root DIR] [--json]',
      does: 'list the note files an older Lore named by device-inode and the\nportable names they get; --apply renames them (once, for the team)',
    },
    {
      usage: '--heal [--root DIR]',
      does: 'record the new path of notes whose file moved; move notes of\ndeleted files to facts.md as "path: note"',
    },
  ],
  options: { heal: { type: 'boolean' }, migrate: { type: 'boolean' }, apply: { type: 'boolean' } },
  run: notes,
});
export const noteCommand = command({
  name: 'note',
  usage: [{ usage: 'PATH TEXT [--root DIR]', does: 'attach a note to a file ([from: manual, today])' }],
  options: {},
  run: note,
});

type NotesOptions = { heal: { type: 'boolean' }; migrate: { type: 'boolean' }; apply: { type: 'boolean' } };

async function notes(parsed: Parsed<NotesOptions>, io: Output): Promise<number> {
  const { values, positionals, paths } = parsed;
  if (values.apply && !values.migrate) throw new UsageError('--apply goes with --migrate');
  if (values.migrate) return migrate(parsed, io);
  if (values.heal) {
    const lock = await acquireStoreLock(paths.root);
    try {
      const report = healNotes(paths);
      if (report.orphaned.length) regenerateDigest(paths, { enabled: loadStoreConfig(paths.config).config.digestEnabled, automatic: true });
      if (values.json) io.out(JSON.stringify(report, null, 2));
      else {
        for (const h of report.healed) io.out(`moved: ${printable(h.from)} → ${printable(h.path)} (${h.file})`);
        for (const o of report.orphaned) io.out(`moved to facts.md: ${o.notes} note(s) of ${printable(o.path)} (file is gone)`);
        if (!report.healed.length && !report.orphaned.length) io.out('all notes resolve to their files');
      }
      if (report.healed.length || report.orphaned.length) {
        const history = await recordStoreChange(paths, {
          type: 'maintenance',
          subject: `notes healed: ${report.healed.length} followed their file, ${report.orphaned.length} moved to facts.md`,
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
              notes: found.note.notes.map((n) => ({ id: listItemId(n), text: n.text, line: n.line, provenance: n.provenance })),
            }
          : { notes: [] },
        null,
        2,
      ),
    );
    return EXIT_OK;
  }
  const asked = workspaceRelative(paths, file);
  const recorded = found?.note.meta.path;
  if (!found || found.note.notes.length === 0) {
    io.out(`no notes for ${printable(positionals[0])}`);
    return EXIT_OK;
  }
  io.out(
    `# ${printable(asked)}  (${storeRelative(paths, found.file)}${found.via === 'inode' ? '' : `, re-found by ${found.via}`}${
      recorded && recorded !== asked ? `, recorded as ${printable(recorded)} until its notes are next written` : ''
    })`,
  );
  // Each note's id after its bullet, as lore search prints it: lore item, history and forget take it.
  for (const note of found.note.notes) io.out(`- ${listItemId(note)}  ${note.text}`);
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

/** `lore notes --migrate [--apply]`: the preview lists each rename; --apply makes them under the lock. */
async function migrate(parsed: Parsed<NotesOptions>, io: Output): Promise<number> {
  const { values, paths } = parsed;
  const show = (renames: NoteRename[], verb: string) => {
    if (values.json) return io.out(JSON.stringify({ applied: !!values.apply, renames }, null, 2));
    for (const r of renames) io.out(`${verb}: files/${r.from} → files/${r.to}  (${printable(r.path)})`);
    if (renames.length === 0) io.out('every note file has its portable name; nothing to migrate');
    else if (!values.apply) io.out(`${renames.length} note file(s) to rename; run lore notes --migrate --apply to do it`);
  };
  if (!values.apply) {
    show(planNoteMigration(paths), 'would rename');
    return EXIT_OK;
  }
  const lock = await acquireStoreLock(paths.root);
  try {
    const done = applyNoteMigration(paths);
    show(done, 'renamed');
    if (done.length > 0) {
      const history = await recordStoreChange(paths, {
        type: 'maintenance',
        subject: `note files renamed to portable ids (${done.length})`,
      });
      if (!values.json) reportHistory(io, history);
    }
  } finally {
    lock.release();
  }
  return EXIT_OK;
}
