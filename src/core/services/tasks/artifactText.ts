/** The free-text fields of an artifact, for instruction flags and for the search projection. */
import type { TaskArtifact } from './artifactSchema';

/** Every human-written text of an artifact (not ids, not structured values). */
export function artifactTexts(a: Partial<TaskArtifact>): string[] {
  const single = [a.goal, a.motivation, a.hypothesis, a.scientific_question, a.summary, a.command, a.why_chosen, a.requested_action];
  const lists = [a.blockers, a.what_worked, a.what_failed, a.validation, a.uncertainty, a.followups];
  return [...single, ...lists.flat()].filter((t): t is string => typeof t === 'string' && t.trim().length > 0);
}
