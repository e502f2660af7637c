/**
 * Where a built context may be cut for providers that cache at explicit breakpoints (Anthropic),
 * and the identity of its stable prefix for providers that cache a named resource (Gemini).
 */
import type { BuiltContext, ContextLayer } from './contextLayers';
import { sha256Hash } from '../../base/lazyCrypto';

/**
 * Anthropic allows 4 cache breakpoints per request; the context uses at most 3 so a caller can
 * still mark something of its own (a tool list, the conversation history).
 */
const MAX_CONTEXT_BREAKPOINTS = 3;

/** A candidate cut: the end of a stable layer. */
export interface CacheBreakpoint {
  /** The stable layer that ends here. */
  layer: ContextLayer;
  /** UTF-16 offset into `text`. */
  offset: number;
}

/**
 * Picks the breakpoints that cover the most stable bytes: the ends of the last `max` stable
 * layers present. The last one is always the end of the stable prefix (a hit covers all of it);
 * the earlier ones still hit when a later stable layer changed: a new file in scope changes the
 * file notes but leaves everything up to the digest cached, a harvest changes the digest but
 * leaves the instructions and tools cached. Returned in text order.
 */
export function chooseCacheBreakpoints(context: BuiltContext, max = MAX_CONTEXT_BREAKPOINTS): CacheBreakpoint[] {
  if (max <= 0) return [];
  const stable = context.boundaries.filter((b) => b.stable && b.end > 0 && b.end <= context.stablePrefixLength);
  return stable.slice(-max).map((b) => ({ layer: b.layer, offset: b.end }));
}

/** A piece of the text between two cuts. */
export interface TextSegment {
  text: string;
  /** True when this segment ends at a cache breakpoint (mark it for caching). */
  breakpoint: boolean;
  /** The stable layer the breakpoint closes, when `breakpoint` is true. */
  layer?: ContextLayer;
}

/**
 * Cuts the text at the breakpoints into segments that concatenate back to the text exactly.
 * Empty segments are dropped (APIs reject empty text blocks); a cut at 0 or at the very end is
 * kept as a flag on the segment it closes.
 */
export function segmentAtBreakpoints(text: string, breakpoints: readonly CacheBreakpoint[]): TextSegment[] {
  const cuts = [...breakpoints].filter((b) => b.offset > 0 && b.offset <= text.length).sort((a, b) => a.offset - b.offset);
  const segments: TextSegment[] = [];
  let start = 0;
  for (const cut of cuts) {
    if (cut.offset <= start) continue;
    segments.push({ text: text.slice(start, cut.offset), breakpoint: true, layer: cut.layer });
    start = cut.offset;
  }
  if (start < text.length) segments.push({ text: text.slice(start), breakpoint: false });
  return segments;
}

/**
 * sha256 (hex) of the stable prefix in UTF-8. Two contexts with the same hash can share a
 * provider cache; a changed hash (a harvest rewrote the digest, a note was added) means the
 * provider's cached prefix no longer applies.
 */
export function stablePrefixHash(context: BuiltContext, salt = ''): string {
  return sha256Hash().update(salt).update('\0').update(context.text.slice(0, context.stablePrefixLength), 'utf8').digest('hex');
}
