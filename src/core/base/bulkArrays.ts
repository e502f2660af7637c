/**
 * Array edits that take any number of elements. Spread into a call (`push(...list)`,
 * `splice(at, 0, ...list)`, `Math.max(...list)`), every element is an argument on the call stack,
 * and past about 120,000 the call throws "Maximum call stack size exceeded": a model's reply of
 * 100,000 items failed a whole harvest that way, in the splice of a category file. The store's
 * write path uses these instead (eslint.config.mjs forbids the spread forms there).
 */

/** Appends the elements of each list to `target`, in order; returns `target`. */
export function pushAll<T>(target: T[], ...lists: ReadonlyArray<Iterable<T>>): T[] {
  for (const list of lists) for (const item of list) target.push(item);
  return target;
}

/** Elements one call may take as arguments here: far below the stack's limit, and above what most edits insert. */
const ARGUMENTS_MAX = 10_000;

/** Array.splice with any number of elements to insert: removes `deleteCount` at `start`, inserts `items` there; returns the removed. */
export function spliceAll<T>(target: T[], start: number, deleteCount: number, items: readonly T[] = []): T[] {
  // The native splice moves the tail in place: kept for the usual few lines (a file's items are edited one by one).
  // eslint-disable-next-line no-restricted-syntax -- bounded by ARGUMENTS_MAX
  if (items.length <= ARGUMENTS_MAX) return target.splice(start, deleteCount, ...items);
  const at = start < 0 ? Math.max(0, target.length + start) : Math.min(start, target.length);
  const removed = target.splice(at, deleteCount);
  const tail = target.splice(at);
  pushAll(target, items, tail);
  return removed;
}

/** The largest of `values` (-Infinity when there are none, as Math.max()). */
export function maxOf(values: Iterable<number>): number {
  let max = -Infinity;
  for (const value of values) if (value > max || Number.isNaN(value)) max = value;
  return max;
}

/** The smallest of `values` (Infinity when there are none, as Math.min()). */
export function minOf(values: Iterable<number>): number {
  let min = Infinity;
  for (const value of values) if (value < min || Number.isNaN(value)) min = value;
  return min;
}
