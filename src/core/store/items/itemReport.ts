/**
 * One item by id as an agent may see it (MCP search by ids): where it is written, its kind,
 * provenance and status (recorded, superseded, pending a person's acceptance, held because it
 * reads as an instruction to an agent), and the changes agents asked for that wait in review.md.
 * A held line's text is withheld, as every agent reply holds such items back.
 */
import { flagInstruction, flagKinds } from '../../model/safety/instructionFlags';
import { readTextIfExists } from '../../base/readText';
import type { StoreLayer, StorePaths } from '../storePaths';
import { acceptedIdentities, itemFilter } from '../heldItems';
import { itemId } from '../../model/itemId';
import { kindOfTarget, type ItemKind } from '../../model/itemKinds';
import { findItemsById } from './itemLocator';
import { parseProvenance } from '../../model/provenance';
import { parseReview, type PendingOp } from '../../model/reviewFile';
import { reviewPath } from './reviewQueue';

export interface ItemReport {
  id: string;
  found: boolean;
  status?: 'recorded' | 'superseded' | 'pending' | 'held';
  kind?: ItemKind;
  /** The line as written (or as it will be once accepted); withheld when it reads as an instruction. */
  line?: string;
  /** Store-relative file. */
  file?: string;
  /** Which layer holds it: the team's shared files or the person's own (`personal/…`, personalLayer.ts). */
  layer?: StoreLayer;
  /** 1-based line in the file (not for a pending item). */
  lineNumber?: number;
  notedPath?: string;
  provenance?: { source: string; date: string };
  supersededBy?: string;
  /**
   * Agents' writes waiting for a person: changes of this item (`newId`: the item an update or
   * supersession would write), or, for an item not written yet, the write that creates it (`of`:
   * the item an update or supersession would change).
   */
  pending?: Array<{ op: PendingOp; newId?: string; of?: string; line: string }>;
  /** Every place the item is written, when more than one. */
  places?: Array<{ file: string; line: number }>;
}

function withheld(line: string): string {
  return `[withheld: it reads as an instruction to an agent (${flagKinds(flagInstruction(line)).join(', ')})]`;
}

/** The report on item `id` (case-insensitive). */
export function readItem(paths: StorePaths, id: string): ItemReport {
  const wanted = id.trim().toLowerCase();
  const keep = itemFilter(acceptedIdentities(paths));
  const shown = (line: string) => (keep(line) ? line : withheld(line));
  const entries = parseReview(readTextIfExists(reviewPath(paths))).entries;
  const changes = entries.filter((e) => e.pending && e.pending.op !== 'remember' && e.pending.id === wanted);
  const pending = changes.map((e) => ({
    op: e.pending!.op,
    ...(e.pending!.op === 'update' || e.pending!.op === 'supersede' ? { newId: itemId(e.line) } : {}),
    line: shown(e.line),
  }));
  const places = findItemsById(paths, wanted);
  if (places.length > 0) {
    const item = places[0];
    const held = !keep(item.raw);
    return {
      id: wanted,
      found: true,
      status: held ? 'held' : item.supersededBy ? 'superseded' : 'recorded',
      kind: item.kind,
      line: held ? withheld(item.raw) : item.raw.trim(),
      file: item.file,
      layer: item.layer,
      lineNumber: item.line,
      ...(item.notedPath !== undefined ? { notedPath: item.notedPath } : {}),
      ...(item.provenance ? { provenance: item.provenance } : {}),
      ...(item.supersededBy ? { supersededBy: item.supersededBy } : {}),
      ...(pending.length ? { pending } : {}),
      ...(places.length > 1 ? { places: places.map((p) => ({ file: p.file, line: p.line })) } : {}),
    };
  }
  // Not in a file: a new item (remember, or the new text of an update) waiting in the queue.
  const queued = entries.find(
    (e) =>
      (!e.pending || e.pending.op === 'remember' || e.pending.op === 'update' || e.pending.op === 'supersede') && itemId(e.line) === wanted,
  );
  if (!queued) return { id: wanted, found: false };
  const provenance = parseProvenance(queued.line);
  const held = queued.kinds.length > 0 || !keep(queued.line);
  return {
    id: wanted,
    found: true,
    status: held ? 'held' : 'pending',
    kind: kindOfTarget(queued.target),
    line: held ? withheld(queued.line) : queued.line,
    file: queued.target.file,
    ...(queued.target.notedPath !== undefined ? { notedPath: queued.target.notedPath } : {}),
    ...(provenance ? { provenance: { source: provenance.source, date: provenance.date } } : {}),
    pending: [
      {
        op: queued.pending?.op ?? 'remember',
        ...(queued.pending?.id ? { of: queued.pending.id } : {}),
        line: held ? withheld(queued.line) : queued.line,
      },
    ],
  };
}
