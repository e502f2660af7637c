/**
 * What a hit is (seed's trust vocabulary): `verified_record` (countersigned by another agent than
 * the claim's, or such a verification itself), `canonical_record` (a non-digest artifact),
 * `compiled_digest_hint` (a digest: re-ground it in the artifacts it names before relying on it),
 * `semantic_candidate` (matched only through similar words, not the words asked for).
 */
import { PROJECT_SCOPE_TASK } from './taskFiles';

export const TRUST_LABELS = ['semantic_candidate', 'canonical_record', 'compiled_digest_hint', 'verified_record'] as const;
export type TrustLabel = (typeof TRUST_LABELS)[number];

interface TrustInput {
  task_id: string;
  artifact_kind: string;
  verification_status: string | null;
  json: string;
}

/**
 * The trust label of a hit, and whether a digest is stale (a source in its scope is newer than
 * its source_updated_at_ms). `fuzzyOnly`: the hit matched none of the query's own terms.
 */
export function trustOf(
  row: TrustInput,
  fuzzyOnly: boolean,
  freshness: { byTask: Map<string, number>; overall: number },
): { trust: TrustLabel; stale: boolean } {
  if (row.artifact_kind === 'digest') {
    const sourceAt = (JSON.parse(row.json) as { source_updated_at_ms?: number }).source_updated_at_ms ?? 0;
    const newest = row.task_id === PROJECT_SCOPE_TASK ? freshness.overall : (freshness.byTask.get(row.task_id) ?? 0);
    return { trust: 'compiled_digest_hint', stale: newest > sourceAt };
  }
  if (row.verification_status === 'verified') return { trust: 'verified_record', stale: false };
  return { trust: fuzzyOnly ? 'semantic_candidate' : 'canonical_record', stale: false };
}
