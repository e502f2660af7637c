/**
 * What the model would read of a conversation file: the file imported and rendered as the §2.1
 * transcript, measured. The harvest budgets (summarize first, too large to send) apply to this,
 * not to the raw file, whose tool output and snapshots never reach a model.
 */
import type { Conversation } from '../../model/conversation';
import { conversationTitle } from '../conversations/conversationTitle';
import { importConversation, type ImportOptions } from '../conversations/detect';
import { renderedTranscriptBytes } from '../conversations/renderTranscript';
import type { RenderedSize } from '../../store/harvestPlan';

/** The conversation in `text` and the size of its rendering. */
export function importMeasured(
  filePath: string,
  text: string,
  options: ImportOptions = {},
): { conversation: Conversation; size: RenderedSize } {
  const conversation = importConversation(filePath, text, options);
  return { conversation, size: measureRendered(conversation) };
}

export function measureRendered(conversation: Conversation): RenderedSize {
  const turns = conversation.turns.length;
  const renderedBytes = turns === 0 ? 0 : renderedTranscriptBytes(conversation);
  const started = conversation.startedAt ?? conversation.turns.find((t) => t.at)?.at;
  const title = conversationTitle(conversation);
  return {
    format: conversation.format,
    turns,
    renderedBytes,
    started,
    ...(title ? { title } : {}),
    unrecognized: conversation.unrecognized,
  };
}
