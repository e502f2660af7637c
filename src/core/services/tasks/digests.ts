/**
 * Summary-first role digests compiled from the canonical artifacts (seed): `project_brief`,
 * `task_resume` (one per task, in the task's own log so resume_task filters by the real task
 * id), `failure_library`, `decision_library`, `evidence_library`, `highlight_library`. A digest
 * is itself an artifact (kind `digest`, promotion_state `summarized`) keyed `role:scope`, naming
 * its sources (related_artifact_ids) and their freshness (source_updated_at_ms). Held artifacts
 * never enter a digest: that would launder their text past the hold.
 */
import { artifactTimeMs, type DigestRole, type TaskArtifact } from './artifactSchema';
import type { ArtifactInput } from './recordArtifact';
import { PROJECT_SCOPE_TASK } from './taskFiles';
import { isHeld } from './taskIndex';
import type { TaskLog } from './taskLog';
import { foldTask } from './taskState';
import { verificationsOf } from './verification';

/** A digest's text is summary-first and short: agents re-ground in the artifacts it names. */
const DIGEST_CHARS = 4000;
const MAX_SOURCES = 200;

/** A digest to write, with what it is compiled from. */
export interface DigestDraft {
  role: DigestRole;
  scope: string;
  key: string;
  input: ArtifactInput;
  sourceUpdatedAtMs: number;
}

function line(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function draft(role: DigestRole, scope: string, lines: string[], sources: TaskArtifact[]): DigestDraft | undefined {
  if (lines.length === 0) return undefined;
  let summary = '';
  for (const l of lines) {
    if (summary.length + l.length + 1 > DIGEST_CHARS) {
      summary += `\n… (${lines.length - summary.split('\n').length} more: task_search with mode and filters)`;
      break;
    }
    summary += (summary ? '\n' : '') + l;
  }
  const sourceUpdatedAtMs = Math.max(0, ...sources.map(artifactTimeMs));
  const key = `${role}:${scope}`;
  return {
    role,
    scope,
    key,
    sourceUpdatedAtMs,
    input: {
      artifact_kind: 'digest',
      task_id: scope,
      artifact_role: role,
      digest_key: key,
      promotion_state: 'summarized',
      summary,
      related_artifact_ids: [...new Set(sources.map((s) => s.artifact_id))].slice(-MAX_SOURCES),
      source_updated_at_ms: sourceUpdatedAtMs,
    },
  };
}

/** Adds a digest line and the artifact it comes from. */
function collect(lines: string[], sources: TaskArtifact[], text: string, source: TaskArtifact): void {
  lines.push(text);
  sources.push(source);
}

/** The task_resume digest of one task. */
function taskResume(log: TaskLog): DigestDraft | undefined {
  const sources = log.artifacts.filter((a) => a.artifact_kind !== 'digest' && !isHeld(a));
  if (!sources.some((a) => a.artifact_kind === 'task_start')) return undefined;
  const s = foldTask(log.taskId, sources);
  const lines = [`${s.status.toUpperCase()}: ${line(s.goal ?? log.taskId)}`];
  if (s.hypothesis) lines.push(`Hypothesis: ${line(s.hypothesis)}`);
  if (s.summary) lines.push(`Latest: ${line(s.summary)}`);
  if (s.blockers.length) lines.push(`Blocked by: ${s.blockers.map(line).join('; ')}`);
  const open = s.runs.filter((r) => !r.finish);
  if (open.length)
    lines.push(`Runs still open: ${open.map((r) => `${r.runId} ${r.start.tool_name ?? r.start.command ?? ''}`.trim()).join('; ')}`);
  for (const w of s.worked) lines.push(`Worked: ${line(w)}`);
  for (const f of s.failed) lines.push(`Failed: ${line(f)}`);
  for (const d of s.decisions) lines.push(`Decided (${d.artifact_id}): ${line(d.summary ?? '')}`);
  for (const e of s.evidence) lines.push(`Evidence (${e.artifact_id}): ${line(e.summary ?? '')}`);
  for (const f of s.followups) lines.push(`Next: ${line(f)}`);
  return draft('task_resume', log.taskId, lines, sources);
}

/** Every digest the current logs call for. */
export function compileDigests(logs: readonly TaskLog[]): DigestDraft[] {
  const drafts: DigestDraft[] = [];
  const brief: string[] = [];
  const failures: string[] = [];
  const decisions: string[] = [];
  const evidence: string[] = [];
  const highlights: string[] = [];
  const src: Record<'brief' | 'failures' | 'decisions' | 'evidence' | 'highlights', TaskArtifact[]> = {
    brief: [],
    failures: [],
    decisions: [],
    evidence: [],
    highlights: [],
  };
  const tasks = logs
    .filter((l) => l.taskId !== PROJECT_SCOPE_TASK)
    .map((l) => ({ log: l, sources: l.artifacts.filter((a) => a.artifact_kind !== 'digest' && !isHeld(a)) }));
  // Active and blocked tasks first in the brief: that is where work resumes.
  const order = (status: string) => (status === 'active' ? 0 : status === 'blocked' ? 1 : 2);
  const states = tasks
    .filter((t) => t.sources.some((a) => a.artifact_kind === 'task_start'))
    .map((t) => ({ ...t, state: foldTask(t.log.taskId, t.sources) }));
  states.sort((a, b) => order(a.state.status) - order(b.state.status) || b.state.updatedMs - a.state.updatedMs);
  for (const { log, sources, state } of states) {
    const resume = taskResume(log);
    if (resume) drafts.push(resume);
    brief.push(`[${state.status}] ${log.taskId}: ${line(state.goal ?? '')}${state.summary ? ` — ${line(state.summary)}` : ''}`);
    src.brief.push(...sources);
    const verified = verificationsOf(sources);
    for (const a of sources) {
      const tag = `${log.taskId}/${a.artifact_id}`;
      for (const f of a.what_failed ?? []) collect(failures, src.failures, `${tag}: ${line(f)}`, a);
      if (a.artifact_kind === 'run_finish' && a.status === 'failed' && !a.what_failed?.length)
        collect(failures, src.failures, `${tag}: run failed: ${line(a.summary ?? '')}`, a);
      if (a.artifact_kind === 'decision')
        collect(decisions, src.decisions, `${tag}: ${line(a.summary ?? '')}${a.why_chosen ? ` (why: ${line(a.why_chosen)})` : ''}`, a);
      const status = verified.get(a.artifact_id)?.status ?? 'unverified';
      if (a.artifact_kind === 'evidence') collect(evidence, src.evidence, `${tag} [${status}]: ${line(a.summary ?? '')}`, a);
      if (status === 'verified') collect(highlights, src.highlights, `${tag} [verified]: ${line(a.summary ?? '')}`, a);
      if (state.status === 'done') for (const w of a.what_worked ?? []) collect(highlights, src.highlights, `${tag}: ${line(w)}`, a);
    }
  }
  for (const d of [
    draft('project_brief', PROJECT_SCOPE_TASK, brief, src.brief),
    draft('failure_library', PROJECT_SCOPE_TASK, failures, src.failures),
    draft('decision_library', PROJECT_SCOPE_TASK, decisions, src.decisions),
    draft('evidence_library', PROJECT_SCOPE_TASK, evidence, src.evidence),
    draft('highlight_library', PROJECT_SCOPE_TASK, highlights, src.highlights),
  ]) {
    if (d) drafts.push(d);
  }
  return drafts;
}
