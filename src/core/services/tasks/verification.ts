/**
 * Countersigning: a claim (any artifact) becomes verified only through a verification artifact
 * that replies to it from a different agent. A verification by the agent that made the claim is
 * kept and shown, but changes nothing: an agent cannot vouch for itself.
 */
import type { TaskArtifact, VerificationStatus } from './artifactSchema';

/** The verification state of one claim. */
export interface ClaimVerification {
  status: VerificationStatus;
  /** Verification artifacts by other agents, newest last. */
  by: string[];
  /** Verifications the claim's own agent recorded (not counted). */
  selfVerifications: string[];
}

/**
 * The effective verification of every claim that a verification replies to. The newest
 * verification by another agent decides; claims nobody else checked stay `unverified`.
 */
export function verificationsOf(artifacts: Iterable<TaskArtifact>): Map<string, ClaimVerification> {
  const byId = new Map<string, TaskArtifact>();
  const all = [...artifacts];
  for (const a of all) byId.set(a.artifact_id, a);
  const result = new Map<string, ClaimVerification>();
  const ordered = all
    .filter((a) => a.artifact_kind === 'verification' && a.reply_to_artifact_id)
    .sort((a, b) => a.timestamp_created.localeCompare(b.timestamp_created));
  for (const v of ordered) {
    const claim = byId.get(v.reply_to_artifact_id!);
    if (!claim) continue;
    const entry = result.get(claim.artifact_id) ?? { status: 'unverified' as VerificationStatus, by: [], selfVerifications: [] };
    if (v.agent_id === claim.agent_id) entry.selfVerifications.push(v.artifact_id);
    else {
      entry.by.push(v.artifact_id);
      entry.status = v.verification_status ?? 'verified';
    }
    result.set(claim.artifact_id, entry);
  }
  return result;
}
