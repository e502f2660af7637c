/**
 * Which transcripts a harvest keeps (design: "transcripts are kept; raw files are reclaimed"):
 * every conversation this run harvests, from the inbox or from anywhere else, and every inbox
 * conversation it reclaims, gets its rendered, redacted transcript planned for transcripts/, and
 * its ledger entry points at it. The plan carries the text, so apply writes exactly what was
 * planned (before the ledger, see applyPlan) and a saved plan needs no second import.
 */
import type { Conversation } from '../../model/conversation';
import { importConversation } from '../conversations/detect';
import { renderTranscript } from '../conversations/renderTranscript';
import type { PrivateMarkers } from '../../model/safety/privateSpans';
import { redactSecrets } from '../../model/safety/redact';
import { alternateTranscriptPath, storedTranscriptSha, transcriptRelativePath, type TranscriptNaming } from '../../store/transcriptFiles';
import { resolveInStore, type StorePaths } from '../../store/storePaths';
import { sha256Hash } from '../../base/lazyCrypto';
import type { ConversationOutcome, HarvestPlan, PlannedTranscript } from '../../store/harvestPlan';
import { readStoreFile } from '../../base/readText';

/** A conversation rendered for the store, before it has a free file name. */
export interface RenderedTranscript {
  naming: TranscriptNaming;
  text: string;
}

/**
 * The conversation with a secret in any field it renders replaced, field by field: the renderer
 * then quotes a redacted YAML value properly (a `[REDACTED:kind]` put into a plain scalar
 * afterwards would read back as a list) and escapes a redacted text line that would look like a
 * tool line. The id already is redacted (sanitizeConversationId); everything else the stored
 * transcript holds is made by the renderer (headings, counts, the sha256).
 */
function redacted(conv: Conversation): Conversation {
  const text = (value: string | undefined) => (value === undefined ? undefined : redactSecrets(value));
  const copy: Conversation = {
    ...conv,
    title: text(conv.title),
    cwd: text(conv.cwd),
    model: text(conv.model),
    // Turn times are rendered as HH:MM only; the first and last are written as they are.
    startedAt: text(conv.startedAt ?? conv.turns.find((t) => t.at)?.at),
    endedAt: text(conv.endedAt ?? conv.turns.findLast((t) => t.at)?.at),
    turns: conv.turns.map((t) => ({ ...t, text: redactSecrets(t.text), ...(t.tools ? { tools: t.tools.map(redactSecrets) } : {}) })),
  };
  for (const key of ['title', 'cwd', 'model', 'startedAt', 'endedAt'] as const) if (copy[key] === undefined) delete copy[key];
  return copy;
}

/** The stored transcript of a conversation whose raw file hashed to `rawSha256` (modified at `mtimeMs`). */
export function renderForStore(conv: Conversation, rawSha256: string, mtimeMs: number): RenderedTranscript {
  const clean = redacted(conv);
  // The file's time only when the conversation carries none, as provenance dates do.
  const started = clean.startedAt ?? new Date(mtimeMs || 0).toISOString();
  return {
    naming: { id: clean.id, title: clean.title, started },
    text: renderTranscript(clean, { rawSha256 }),
  };
}

/**
 * For an inbox conversation reclaimed on an older proof (a ledger entry written before Lore kept
 * transcripts, or with them turned off): reads and renders it now, if its bytes are still the
 * ones the ledger proves.
 */
function renderReclaimed(outcome: ConversationOutcome, privateMarkers: readonly PrivateMarkers[]): RenderedTranscript | undefined {
  try {
    const bytes = readStoreFile(outcome.path);
    if (sha256Hash().update(bytes).digest('hex') !== outcome.sha256) return undefined;
    const conv = importConversation(outcome.path, bytes.toString('utf8'), { privateMarkers });
    return conv.turns.length ? renderForStore(conv, outcome.sha256, outcome.mtimeMs) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Adds the transcripts to a built plan and points the ledger entries at them. `rendered` holds
 * the conversations this run imported, by raw sha256. A transcript already stored for the same
 * raw file is not planned again; a name taken by another raw file's transcript gets the sha.
 * `privateMarkers`: the run's private-span markers, for a conversation read again here.
 */
export function planTranscripts(
  paths: StorePaths,
  plan: HarvestPlan,
  rendered: Map<string, RenderedTranscript>,
  privateMarkers: readonly PrivateMarkers[] = [],
): void {
  const planned: PlannedTranscript[] = [];
  const taken = new Set<string>();
  for (const outcome of plan.outcomes) {
    const entry = outcome.sha256 ? plan.ledger.entries[outcome.sha256] : undefined;
    if (!entry || entry.transcript || taken.has(outcome.sha256)) continue;
    const harvestedNow = outcome.status === 'harvested' || outcome.status === 'deleted-unharvested';
    if (!harvestedNow && !outcome.reclaim) continue;
    const transcript = rendered.get(outcome.sha256) ?? (outcome.reclaim ? renderReclaimed(outcome, privateMarkers) : undefined);
    if (!transcript) continue;
    let file = transcriptRelativePath(transcript.naming);
    let existing = storedTranscriptSha(resolveInStore(paths, file));
    if ((existing !== undefined && existing !== outcome.sha256) || planned.some((p) => p.file === file)) {
      file = alternateTranscriptPath(file, outcome.sha256);
      existing = storedTranscriptSha(resolveInStore(paths, file));
    }
    taken.add(outcome.sha256);
    plan.ledger.entries[outcome.sha256] = { ...entry, transcript: file };
    if (existing !== outcome.sha256) planned.push({ file, sha256: outcome.sha256, text: transcript.text });
  }
  if (planned.length) plan.transcripts = planned;
}
