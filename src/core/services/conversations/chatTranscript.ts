/**
 * Records an @lore discussion (written by the language server for VS Code) into the store's inbox as a §2.1 markdown transcript, so the next
 * harvest learns from it. One file per discussion, rewritten as it grows (atomic writes); its
 * session id stays the same, so re-harvesting a longer version does not duplicate lines.
 */
import * as path from 'node:path';
import type { Conversation, Turn } from '../../model/conversation';
import { renderTranscript } from './renderTranscript';
import { redactSecrets } from '../../model/safety/redact';
import { writeFileAtomic } from '../../base/atomicWrite';
import type { StorePaths } from '../../store/storePaths';

export interface ChatRecord {
  discussionId: string;
  startedAt: string;
  model?: string;
  turns: Turn[];
}

/** The inbox file of a discussion. */
function transcriptPath(paths: StorePaths, record: ChatRecord): string {
  return path.join(paths.inbox, `${record.startedAt.slice(0, 10)}-${record.discussionId}.md`);
}

export function writeChatTranscript(paths: StorePaths, record: ChatRecord): string {
  const conversation: Conversation = {
    id: record.discussionId,
    format: 'lore-transcript',
    sourcePath: transcriptPath(paths, record),
    title: `@lore: ${
      record.turns
        .find((t) => t.role === 'user')
        ?.text.split('\n')[0]
        .slice(0, 80) ?? record.discussionId
    }`,
    startedAt: record.startedAt,
    model: record.model,
    turns: record.turns.map((t) => ({ ...t, text: redactSecrets(t.text) })),
  };
  const file = transcriptPath(paths, record);
  writeFileAtomic(file, renderTranscript(conversation));
  return file;
}
