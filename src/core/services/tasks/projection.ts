/**
 * The retrieval projection: canonical artifacts turned into search chunks (seed: task_goal,
 * task_summary, run, evidence, decision, digest, worked, failed, validation). A chunk is derived,
 * search-optimized text; the artifact stays the record a hit points to.
 */
import type { TaskArtifact } from './artifactSchema';

export const CHUNK_KINDS = [
  'task_goal',
  'task_summary',
  'run',
  'evidence',
  'decision',
  'digest',
  'worked',
  'failed',
  'validation',
] as const;
export type ChunkKind = (typeof CHUNK_KINDS)[number];

/** One search chunk of an artifact. */
export interface TaskChunk {
  artifactId: string;
  taskId: string;
  kind: ChunkKind;
  text: string;
  /** Words that help ranking but are not the chunk's own (the task's goal, tool, datasets). */
  context: string;
}

function join(...parts: Array<string | undefined | false>): string {
  return parts.filter((p): p is string => typeof p === 'string' && p.trim().length > 0).join(' — ');
}

function compactJson(value: Record<string, unknown> | undefined): string | undefined {
  if (!value || Object.keys(value).length === 0) return undefined;
  return Object.entries(value)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ')
    .slice(0, 600);
}

/** The chunks of one artifact; `goal` is its task's goal (context for every chunk). */
export function projectArtifact(a: TaskArtifact, goal = ''): TaskChunk[] {
  const refs = [
    ...(a.dataset_refs ?? []).map((d) => `${d.name}${d.version ? ` ${d.version}` : ''}`),
    ...(a.entity_refs ?? []).map((e) => e.name),
  ].join(' ');
  const context = join(goal, a.tool_name, refs);
  const chunks: TaskChunk[] = [];
  const add = (kind: ChunkKind, text: string) => {
    if (text.trim()) chunks.push({ artifactId: a.artifact_id, taskId: a.task_id, kind, text, context });
  };
  switch (a.artifact_kind) {
    case 'task_start':
      add(
        'task_goal',
        join(
          a.goal,
          a.motivation,
          a.hypothesis && `hypothesis: ${a.hypothesis}`,
          a.scientific_question && `question: ${a.scientific_question}`,
        ),
      );
      break;
    case 'task_progress':
    case 'task_finish':
    case 'review':
    case 'revision':
      add(
        'task_summary',
        join(
          a.summary,
          a.hypothesis && `hypothesis: ${a.hypothesis}`,
          !!a.blockers?.length && `blockers: ${a.blockers.join('; ')}`,
          !!a.followups?.length && `follow-ups: ${a.followups.join('; ')}`,
        ),
      );
      break;
    case 'run_start':
      add(
        'run',
        join(
          a.tool_name && `${a.tool_name}${a.tool_version ? ` ${a.tool_version}` : ''}`,
          a.command,
          a.why_chosen,
          compactJson(a.parameters),
          a.summary,
        ),
      );
      break;
    case 'run_finish':
      add('run', join(a.tool_name, a.status, a.summary, compactJson(a.metrics), compactJson(a.outputs)));
      break;
    case 'evidence':
      add('evidence', join(a.summary, compactJson(a.metrics), refs, (a.provenance?.files ?? []).join(' ')));
      break;
    case 'decision':
      add('decision', join(a.summary, a.why_chosen && `why: ${a.why_chosen}`));
      break;
    case 'digest':
      add('digest', join(a.artifact_role, a.summary));
      break;
    case 'verification':
      add('validation', join(a.verification_status, a.summary));
      break;
  }
  for (const item of a.what_worked ?? []) add('worked', item);
  for (const item of a.what_failed ?? []) add('failed', item);
  for (const item of [...(a.validation ?? []), ...(a.uncertainty ?? []).map((u) => `uncertain: ${u}`)]) add('validation', item);
  return chunks;
}
