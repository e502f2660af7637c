/**
 * The @lore chat participant: answers through the configured direct provider (with prompt
 * caching), the chat's VS Code language model, or, with no model at all, from Lore's local
 * knowledge (chatAnswer.ts); shows which knowledge it used, records a model's answers into
 * the inbox for the next harvest, and runs the topics' output watchers on them (in the language
 * server), so a corrective topic reaches the discussion's next prompt.
 *
 * VS Code itself resolves a language model for every chat request before it calls a participant,
 * and stops with "Language model unavailable" when it has none (no Copilot or other model
 * provider): then this handler never runs, whatever `lore.provider` says. directModelProvider.ts
 * offers the direct provider as a chat model for that reason (VS Code 1.104+).
 */
import * as vscode from 'vscode';
import type { EarlierTurn } from '../../core/services/promptCache/contextLayers';
import { sha256Hash } from '../../core/base/lazyCrypto';
import type { CacheStates } from '../cache/cacheStates';
import { logger } from '../log';
import type { SearchClient } from '../search/searchClient';
import type { StoreService } from '../storeService';
import { ChatTranscriptRequest } from '../../shared/protocol';
import { ChatAnswerer, type ChatAnswer, type ChatOutput, type ChatQuestion } from './chatAnswer';

const log = logger('chat');

/** A stable id for a discussion: the chat API has none, so hash its first prompt. */
function discussionIdFor(firstPrompt: string): string {
  return 'lore-chat-' + sha256Hash().update(firstPrompt).digest('hex').slice(0, 10);
}

function responseText(turn: vscode.ChatResponseTurn): string {
  return turn.response.map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : '')).join('');
}

/** Files the user attached (#file) plus the active editor's file. */
function filesInScope(request: vscode.ChatRequest): string[] {
  const files = new Set<string>();
  for (const ref of request.references) {
    const value = ref.value;
    if (value instanceof vscode.Uri && value.scheme === 'file') files.add(value.fsPath);
    else if (value instanceof vscode.Location && value.uri.scheme === 'file') files.add(value.uri.fsPath);
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === 'file') files.add(active.fsPath);
  return [...files];
}

/** @lore without the chat API's request type: what the participant runs, and what tests drive. */
export interface LoreChat {
  /** Answers a question (with the earlier turns of its discussion) into `out`, and records a model's answer. */
  ask(
    question: Omit<ChatQuestion, 'discussionId'> & { discussionId?: string },
    out: ChatOutput,
    token: vscode.CancellationToken,
  ): Promise<ChatAnswer & { discussionId: string }>;
}

export function registerLoreParticipant(
  context: vscode.ExtensionContext,
  store: StoreService,
  caches: CacheStates,
  search: SearchClient,
): { chat: LoreChat; disposable: vscode.Disposable } {
  // When each discussion started (provenance dates and the transcript's name depend on it).
  const started = new Map<string, string>();
  const answerer = new ChatAnswerer(context.secrets, store, caches, search);

  const chat: LoreChat = {
    async ask(question, out, token) {
      const firstPrompt = question.history.find((t) => t.role === 'user')?.text ?? question.prompt;
      const discussionId = question.discussionId ?? discussionIdFor(firstPrompt);
      const answer = await answerer.answer({ ...question, discussionId }, out, token);
      if (answer.route === 'local' || answer.route === 'failed') return { ...answer, discussionId };
      if (store.exists && answer.text) {
        try {
          const { activated } = await search.watchReply({ sessionId: discussionId, reply: answer.text });
          if (activated.length)
            log.info(`output watchers: ${activated.map((a) => a.topic).join(', ')} for the next turn of ${discussionId}`);
        } catch (error) {
          log.warn(`output watchers not run: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      // Where the notes it was given come from, quoted (escaped: note text is data).
      for (const notes of answer.notes) {
        for (const line of notes.notes) out.markdown(`\n\n> ${notes.path}: ${line.replace(/[<>]/g, '')}`);
      }
      if (store.exists && answer.text) {
        try {
          const now = new Date().toISOString();
          if (!started.has(discussionId)) started.set(discussionId, now);
          const turns = [
            ...question.history,
            { role: 'user' as const, text: question.prompt, at: now },
            { role: 'assistant' as const, text: answer.text, at: now },
          ];
          // The language server writes it (the window's one writer).
          await store.request(ChatTranscriptRequest, {
            discussionId,
            startedAt: started.get(discussionId)!,
            ...(answer.model ? { model: answer.model } : {}),
            turns,
          });
        } catch (error) {
          log.error('could not record the discussion in the inbox', error);
        }
      }
      return { ...answer, discussionId };
    },
  };

  const handler: vscode.ChatRequestHandler = async (request, chatContext, stream, token) => {
    const history: EarlierTurn[] = chatContext.history
      .filter((t) => t.participant === 'lore.chat')
      .map((t) =>
        t instanceof vscode.ChatRequestTurn
          ? { role: 'user' as const, text: t.prompt }
          : { role: 'assistant' as const, text: responseText(t as vscode.ChatResponseTurn) },
      );
    const { discussionId } = await chat.ask(
      { prompt: request.prompt, files: filesInScope(request), history, model: request.model },
      stream,
      token,
    );
    return { metadata: { discussionId } };
  };
  const participant = vscode.chat.createChatParticipant('lore.chat', handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'lore.svg');
  return { chat, disposable: participant };
}
