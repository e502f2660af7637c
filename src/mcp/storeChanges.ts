/**
 * What an agent is told when the store changes under a running `lore mcp` (a teammate's pull, a
 * harvest, a person's edit, another agent's write): the files the store watcher or the server's
 * own writes report become the resources they change, so a client re-reads what it holds
 * (`notifications/resources/updated` for the URIs it subscribed to) and re-lists when the set
 * of resources changed (`notifications/resources/list_changed`); a change to playbooks.md touches
 * every skill's SKILL.md. The tool and prompt lists never change while Lore runs, so no
 * list_changed is sent for them (and none is declared).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { classifySource } from '../core/services/search/sourceFiles';
import type { StorePaths } from '../core/store/storePaths';

/** The resources a set of changed store files touches. */
export interface StoreChange {
  /** Resource URIs whose content may have changed (a notes URI stands for every file's notes). */
  uris: string[];
  /** The list of resources may have changed (a transcript or a category file came or went). */
  listChanged: boolean;
}

/** Every `lore://notes/…` URI: a note file names its file inside, so any change may touch any. */
export const ANY_NOTES = 'lore://notes/';
/** Every skill's SKILL.md (skills.ts): playbooks.md holds them all, and a skill's name comes from inside it. */
export const ANY_SKILL = 'skill://';

/** The resources `files` (absolute paths in the store) touch. */
export function changeOf(paths: StorePaths, files: readonly string[]): StoreChange {
  const uris = new Set<string>();
  let listChanged = false;
  for (const file of files) {
    const source = classifySource(paths, file);
    if (source?.kind === 'category' && source.category) {
      uris.add(`lore://knowledge/${source.category}`);
      uris.add('lore://digest');
      if (source.category === 'playbooks') uris.add(ANY_SKILL);
      listChanged = true;
    } else if (source?.kind === 'notes') uris.add(ANY_NOTES);
    else if (source?.kind === 'transcript') listChanged = true;
  }
  return { uris: [...uris], listChanged };
}

/** Whether a change touches a subscribed URI. */
export function touches(change: StoreChange, uri: string): boolean {
  return (
    change.uris.includes(uri) ||
    (uri.startsWith(ANY_NOTES) && change.uris.includes(ANY_NOTES)) ||
    (uri.startsWith(ANY_SKILL) && change.uris.includes(ANY_SKILL))
  );
}

/** Listeners of one store session's changes. */
export class ChangeFeed {
  private readonly listeners = new Set<(change: StoreChange) => void>();

  on(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(change: StoreChange): void {
    if (change.uris.length === 0 && !change.listChanged) return;
    for (const listener of this.listeners) listener(change);
  }
}

/** What a server session needs of the store session to notify. */
export interface FollowedStore {
  readonly changes: ChangeFeed;
  /** Starts watching the store (the watcher of the search index), when there is one. */
  follow(): Promise<void>;
}

/**
 * Resource subscriptions (revisions up to 2025-11-25: `resources/subscribe`) and list changes
 * for a server session; what is new is sent while the client stays connected.
 */
export function registerChangeNotifications(server: McpServer, store: FollowedStore): void {
  const subscribed = new Set<string>();
  // The tool and prompt lists are fixed while Lore runs: clients need not listen for them.
  server.server.registerCapabilities({
    resources: { subscribe: true, listChanged: true },
    tools: { listChanged: false },
    prompts: { listChanged: false },
  });
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    await store.follow();
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  store.changes.on((change) => {
    if (!server.isConnected()) return;
    for (const uri of subscribed) if (touches(change, uri)) void server.server.sendResourceUpdated({ uri }).catch(() => undefined);
    if (change.listChanged) server.sendResourceListChanged();
  });
}
