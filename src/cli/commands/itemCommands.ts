/**
 * `lore item ID` shows one knowledge item by its id (where it is, its provenance, whether it is
 * superseded, pending or held, and agents' changes of it waiting for review). `lore forget ID`
 * is forgetCommand.ts. `lore move ID --personal | --shared` moves an item between the store's
 * shared files and the person's own layer (personalLayer.ts).
 */
import { readItem } from '../../core/store/items/itemReport';
import { moveItem } from '../../core/store/items/moveItem';
import { reportHistory } from '../historyText';
import { archivedItems } from '../../core/store/lifecycle/knowledgeArchive';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, UsageError, printable, type Output } from '../cliSupport';

export const itemCommand = command({
  name: 'item',
  usage: [{ usage: 'ID [--root DIR] [--json]', does: 'show a knowledge item by its id (as agents and replies name it)' }],
  options: {},
  run: item,
});

const MOVE_OPTIONS = {
  personal: { type: 'boolean' },
  shared: { type: 'boolean' },
  file: { type: 'string' },
} as const;

export const moveCommand = command({
  name: 'move',
  usage: [
    {
      usage: 'ID --personal | --shared [--file F] [--root DIR] [--json]',
      does: `move an item to your personal layer (.lore/personal/, git-ignored: agents get it,
the team's history never holds it) or back to the shared files; it keeps its id and
provenance (F: its store file, when it is in several)`,
    },
  ],
  options: MOVE_OPTIONS,
  run: move,
});

async function move(parsed: Parsed<typeof MOVE_OPTIONS>, io: Output): Promise<number> {
  const { values, paths } = parsed;
  if (values.personal === values.shared) throw new UsageError('say where it goes: --personal or --shared');
  const result = await moveItem(paths, oneId(parsed.positionals), values.personal ? 'personal' : 'shared', { file: values.file });
  if (values.json) io.out(JSON.stringify(result, null, 2));
  else if (result.moved) {
    io.out(`moved ${result.id}: ${printable(result.from)} → ${printable(result.to)}`);
    reportHistory(io, result.history);
  } else io.err(printable(result.reason));
  return result.moved || result.unchanged ? EXIT_OK : EXIT_FAILED;
}

function oneId(positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError('name one item id');
  return positionals[0];
}

async function item(parsed: Parsed, io: Output): Promise<number> {
  const report = readItem(parsed.paths, oneId(parsed.positionals));
  if (parsed.values.json) {
    io.out(JSON.stringify(report, null, 2));
    return report.found ? EXIT_OK : EXIT_FAILED;
  }
  if (!report.found) {
    // Not in the live files: it may have decayed into the archive (lore prune).
    const archived = archivedItems(parsed.paths).find((i) => i.id === report.id);
    if (archived)
      io.err(
        `item ${report.id} is archived: ${printable(archived.file)}:${archived.item.line + 1}  ${printable(archived.line)}\n(lore prune --restore ${report.id} brings it back)`,
      );
    else io.err(`no item ${printable(report.id)} in this store (an edited item has a new id)`);
    return EXIT_FAILED;
  }
  const where = report.file ? `${report.file}${report.lineNumber ? `:${report.lineNumber}` : ''}` : '';
  io.out(
    `${report.id}  ${report.kind}, ${report.status}${report.layer === 'personal' ? ', personal' : ''}  ${printable(where)}${report.notedPath ? ` (about ${printable(report.notedPath)})` : ''}`,
  );
  io.out(printable(report.line ?? ''));
  if (report.supersededBy) io.out(`superseded by ${report.supersededBy}`);
  for (const p of report.pending ?? [])
    io.out(`pending ${p.op}${p.of ? ` of ${p.of}` : ''}${p.newId ? ` (new item ${p.newId})` : ''}: ${printable(p.line)}  (lore review)`);
  for (const p of (report.places ?? []).slice(1)) io.out(`also in ${printable(p.file)}:${p.line}`);
  return EXIT_OK;
}
