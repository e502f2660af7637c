/**
 * `lore item ID` shows one knowledge item by its id (where it is, its provenance, whether it is
 * superseded, pending or held, and agents' changes of it waiting for review). `lore forget ID`
 * is forgetCommand.ts.
 */
import { readItem } from '../../core/store/items/itemReport';
import { archivedItems } from '../../core/store/lifecycle/knowledgeArchive';
import { command, type Parsed } from '../command';
import { EXIT_FAILED, EXIT_OK, UsageError, printable, type Output } from '../cliSupport';

export const itemCommand = command({
  name: 'item',
  usage: [{ usage: 'ID [--root DIR] [--json]', does: 'show a knowledge item by its id (as agents and replies name it)' }],
  options: {},
  run: item,
});

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
    `${report.id}  ${report.kind}, ${report.status}  ${printable(where)}${report.notedPath ? ` (about ${printable(report.notedPath)})` : ''}`,
  );
  io.out(printable(report.line ?? ''));
  if (report.supersededBy) io.out(`superseded by ${report.supersededBy}`);
  for (const p of report.pending ?? [])
    io.out(`pending ${p.op}${p.of ? ` of ${p.of}` : ''}${p.newId ? ` (new item ${p.newId})` : ''}: ${printable(p.line)}  (lore review)`);
  for (const p of (report.places ?? []).slice(1)) io.out(`also in ${printable(p.file)}:${p.line}`);
  return EXIT_OK;
}
