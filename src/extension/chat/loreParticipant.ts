/**
 * The @lore chat participant: answers with the user's model (or a configured direct provider,
 * with prompt caching) through the context builder — digest, notes of the files in scope, the
 * discussion so far — shows which knowledge it used, and records the discussion into the
 * inbox for the next harvest.
 */
import * as vscode from 'vscode';
import { buildContext, DEFAULT_ROLE_INSTRUCTIONS, stablePrefix, volatileSuffix } from '../../core/context/buildContext';
import { createCacheState, recordCall } from '../../core/context/cacheState';
import type { EarlierTurn } from '../../core/context/contextLayers';
import { loadContextInputs, type LoadedContextInputs } from '../../core/context/loadContextInputs';
import { isNetworkVendor } from '../../core/providers/endpoints';
import { createAdapter } from '../../core/providers/providerRegistry';
import type { CacheStates } from '../cache/cacheStates';
import { logger } from '../log';
import { adapterOptions } from '../providers/providerChoice';
import { readSettings } from '../settings';
import type { StoreService } from '../storeService';
import { writeChatTranscript } from './chatTranscript';
import { sha256Hash } from '../../core/util/sha256';

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

export function registerLoreParticipant(context: vscode.ExtensionContext, store: StoreService, caches: CacheStates): vscode.Disposable {
  // When each discussion started (provenance dates and the transcript's name depend on it).
  const started = new Map<string, string>();
  const handler: vscode.ChatRequestHandler = async (request, chatContext, stream, token) => {
    const history = chatContext.history.filter((t) => t.participant === 'lore.chat');
    const firstPrompt = history.find((t): t is vscode.ChatRequestTurn => t instanceof vscode.ChatRequestTurn)?.prompt ?? request.prompt;
    const discussionId = discussionIdFor(firstPrompt);
    const earlierTurns: EarlierTurn[] = history.map((t) => (t instanceof vscode.ChatRequestTurn ? { role: 'user' as const, text: t.prompt } : { role: 'assistant' as const, text: responseText(t as vscode.ChatResponseTurn) }));
    const files = filesInScope(request);
    const inputs: Pick<LoadedContextInputs, 'digest' | 'fileNotes' | 'message'> = store.exists ? loadContextInputs(store.paths, { files, message: request.prompt }) : { fileNotes: [], message: request.prompt };
    const built = buildContext({ role: DEFAULT_ROLE_INSTRUCTIONS, ...inputs, discussion: { id: discussionId, turn: earlierTurns.length / 2 + 1 }, earlierTurns });

    // Show what knowledge the answer is built on, with provenance.
    const used: string[] = [];
    if (inputs.digest) used.push('the knowledge digest');
    for (const notes of inputs.fileNotes ?? []) {
      used.push(`${notes.notes.length} note(s) on \`${notes.path}\``);
    }
    stream.progress(used.length ? `Using ${used.join(', ')}` : 'No Lore knowledge applies yet');

    const settings = readSettings();
    let answer = '';
    let modelName = request.model.name;
    const abort = new AbortController();
    const subscription = token.onCancellationRequested(() => abort.abort());
    try {
      if (isNetworkVendor(settings.provider)) {
        // The same adapter as the harvest's; a discussion comes back, so its prefix is worth an explicit cache.
        const adapter = createAdapter(settings.provider, await adapterOptions(context.secrets, settings.provider, settings));
        const state = caches.get(discussionId) ?? createCacheState(discussionId, settings.provider);
        const reply = await adapter.send(built, { cache: { mode: 'explicit', state }, signal: abort.signal });
        await caches.put(recordCall(state, reply.usage, Date.now(), reply.cache));
        answer = reply.text;
        modelName = reply.model;
        stream.markdown(answer);
      } else {
        const messages = [vscode.LanguageModelChatMessage.User(stablePrefix(built)), vscode.LanguageModelChatMessage.User(volatileSuffix(built))];
        const response = await request.model.sendRequest(messages, {}, token);
        for await (const chunk of response.text) {
          answer += chunk;
          stream.markdown(chunk);
        }
      }
    } catch (error) {
      log.error('chat request failed', error);
      stream.markdown(`\n\n*Lore could not get an answer: ${error instanceof Error ? error.message : String(error)}*`);
    } finally {
      subscription.dispose();
    }
    for (const notes of inputs.fileNotes ?? []) {
      for (const line of notes.notes) stream.markdown(`\n\n> ${notes.path}: ${line.replace(/[<>]/g, '')}`);
    }

    if (store.exists && answer) {
      try {
        const now = new Date().toISOString();
        if (!started.has(discussionId)) started.set(discussionId, now);
        const turns = [
          ...earlierTurns,
          { role: 'user' as const, text: request.prompt, at: now },
          { role: 'assistant' as const, text: answer, at: now },
        ];
        writeChatTranscript(store.paths, { discussionId, startedAt: started.get(discussionId)!, model: modelName, turns });
      } catch (error) {
        log.error('could not record the discussion in the inbox', error);
      }
    }
    return { metadata: { discussionId } };
  };
  const participant = vscode.chat.createChatParticipant('lore.chat', handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'lore.svg');
  return participant;
}
