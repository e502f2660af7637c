/**
 * Lore's MCP resources, for clients that let a user or an agent attach context by URI:
 *   lore://digest                the digest (open tasks, questions, decisions, facts, playbooks)
 *   lore://knowledge/{category}  a category file (facts, decisions, questions, playbooks, tasks)
 *   lore://notes/{+path}         the notes on a workspace file
 *   lore://transcript/{id}       the stored transcript of a conversation, by its id
 * Each is redacted, framed as data, without items held for review, and at most
 * MAX_REPLY_TOKENS long (what is cut is said, with the tool that reads the rest).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { sanitizeConversationId } from '../core/services/conversations/conversationId';
import { CATEGORY_FILES, type CategoryFileKey } from '../core/model/categories';
import { agentItemFilter, withoutHeldItems } from '../core/store/heldItems';
import { frameAsData } from '../core/model/safety/dataFraming';
import { redactSecrets } from '../core/model/safety/redact';
import { digestSectionsFromFiles } from '../core/store/digest';
import { renderDigest } from '../core/model/digestFormat';
import { readLedger } from '../core/store/ledger';
import { isInside, type StorePaths } from '../core/store/storePaths';
import { readTextIfExists } from '../core/base/readText';
import { readFileNotes } from '../core/services/agentTools/fileNoteLines';
import { openConversationText } from '../core/services/agentTools/openConversation';
import type { StoreSession } from './storeSession';
import { MAX_REPLY_TOKENS, budgetBytes } from '../core/services/agentTools/toolReply';

const MARKDOWN = 'text/markdown';
/** Values offered per completion request (the protocol allows 100). */
const MAX_COMPLETIONS = 100;
/** Transcripts listed by resources/list: the newest (the rest are reached by id). */
const LISTED_TRANSCRIPTS = 50;
const CATEGORY_KEYS = Object.keys(CATEGORY_FILES) as CategoryFileKey[];

/** The store, or the resource error that says it is missing. */
async function storeOf(session: StoreSession): Promise<StorePaths> {
  const lookup = await session.lookup();
  if (!lookup.found) throw new McpError(ErrorCode.InvalidRequest, lookup.message);
  return lookup.paths;
}

/** The store when there is one (listing and completion just offer nothing without). */
async function maybeStore(session: StoreSession): Promise<StorePaths | undefined> {
  const lookup = await session.lookup();
  return lookup.found ? lookup.paths : undefined;
}

/** A markdown resource: redacted, framed as data, cut to the largest reply with a line that says so. */
function markdown(uri: string, text: string, whenCut: string): ReadResourceResult {
  const max = budgetBytes(MAX_REPLY_TOKENS);
  let body = redactSecrets(text);
  if (Buffer.byteLength(body) > max) {
    const lines = body.split('\n');
    let size = 0;
    let kept = 0;
    while (kept < lines.length && size + Buffer.byteLength(lines[kept]) + 1 <= max) size += Buffer.byteLength(lines[kept++]) + 1;
    body = `${lines.slice(0, kept).join('\n')}\n(cut: ${lines.length - kept} more lines; ${whenCut})`;
  }
  return { contents: [{ uri, mimeType: MARKDOWN, text: frameAsData(body) }] };
}

const notFound = (what: string) => new McpError(ErrorCode.InvalidParams, what);
const one = (value: string | string[]) => (Array.isArray(value) ? value[0] : value);

/** Registers the resources on `server`. */
export function registerResources(server: McpServer, session: StoreSession): void {
  server.registerResource(
    'digest',
    'lore://digest',
    {
      title: 'Knowledge digest',
      description: 'The newest open tasks, open questions, decisions, facts and playbooks of this project',
      mimeType: MARKDOWN,
    },
    async (uri) => {
      const paths = await storeOf(session);
      return markdown(
        uri.href,
        renderDigest(digestSectionsFromFiles(paths)) ?? 'the knowledge store has no items yet',
        'read lore://knowledge/{category} for all items',
      );
    },
  );

  server.registerResource(
    'knowledge',
    new ResourceTemplate('lore://knowledge/{category}', {
      list: async () => {
        const paths = await maybeStore(session);
        if (!paths) return { resources: [] };
        return {
          resources: CATEGORY_KEYS.filter((key) => fs.existsSync(path.join(paths.root, CATEGORY_FILES[key].file))).map((key) => ({
            uri: `lore://knowledge/${key}`,
            name: CATEGORY_FILES[key].file,
            title: CATEGORY_FILES[key].title,
            mimeType: MARKDOWN,
          })),
        };
      },
      complete: { category: (value) => CATEGORY_KEYS.filter((key) => key.startsWith(value.toLowerCase())) },
    }),
    {
      title: 'Knowledge category',
      description: 'All items of one category file: facts, decisions, questions, playbooks or tasks',
      mimeType: MARKDOWN,
    },
    async (uri, variables) => {
      const paths = await storeOf(session);
      const key = one(variables.category) as CategoryFileKey;
      if (!CATEGORY_KEYS.includes(key)) throw notFound(`no category ${key}: one of ${CATEGORY_KEYS.join(', ')}`);
      const text = readTextIfExists(path.join(paths.root, CATEGORY_FILES[key].file)) ?? `# ${CATEGORY_FILES[key].title}\n\n(no items yet)`;
      return markdown(
        uri.href,
        withoutHeldItems(text, agentItemFilter(paths)),
        'use the search tool with a query and category to find the rest',
      );
    },
  );

  server.registerResource(
    'notes',
    new ResourceTemplate('lore://notes/{+path}', {
      list: undefined,
      complete: { path: workspacePathCompleter(session) },
    }),
    { title: 'Notes on a file', description: 'The notes recorded about one workspace file (lore://notes/src/app.ts)', mimeType: MARKDOWN },
    async (uri, variables) => {
      const paths = await storeOf(session);
      const file = safeDecode(one(variables.path));
      const abs = path.resolve(paths.workspace, file);
      if (!isInside(paths.workspace, abs)) throw notFound(`refused: ${file} is outside the workspace ${paths.workspace}`);
      const found = await readFileNotes(paths, abs);
      const keep = agentItemFilter(paths);
      const lines = (found?.lines ?? []).filter(keep);
      return markdown(
        uri.href,
        [`# Notes on ${found?.path ?? file}`, ...(lines.length ? lines : ['(no notes)'])].join('\n'),
        'use the search tool with this path and an offset to read the rest',
      );
    },
  );

  server.registerResource(
    'transcript',
    new ResourceTemplate('lore://transcript/{id}', {
      list: async () => {
        const paths = await maybeStore(session);
        return {
          resources: paths
            ? transcriptIds(paths)
                .slice(0, LISTED_TRANSCRIPTS)
                .map((id) => ({ uri: `lore://transcript/${encodeURIComponent(id)}`, name: id, mimeType: MARKDOWN }))
            : [],
        };
      },
      complete: {
        id: async (value) => {
          const paths = await maybeStore(session);
          return paths
            ? transcriptIds(paths)
                .filter((id) => id.startsWith(value))
                .slice(0, MAX_COMPLETIONS)
            : [];
        },
      },
    }),
    {
      title: 'Conversation transcript',
      description: 'The stored transcript of a past conversation, by the id in [from: ID, date]',
      mimeType: MARKDOWN,
    },
    async (uri, variables) => {
      const paths = await storeOf(session);
      const id = sanitizeConversationId(safeDecode(one(variables.id)));
      const excerpt = openConversationText(paths, id, '', { maxBytes: budgetBytes(MAX_REPLY_TOKENS) });
      if (!excerpt.found) throw notFound(excerpt.text);
      return { contents: [{ uri: uri.href, mimeType: MARKDOWN, text: frameAsData(redactSecrets(excerpt.text)) }] };
    },
  );
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Conversation ids with a stored transcript, newest harvest first. */
function transcriptIds(paths: StorePaths): string[] {
  let entries;
  try {
    entries = Object.values(readLedger(paths.ledger).entries);
  } catch {
    return [];
  }
  const ids = entries
    .filter((e) => e.id && e.transcript)
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .map((e) => e.id!);
  return [...new Set(ids)];
}

/** Completes workspace paths for the session's store (the notes resource, the file_knowledge prompt). */
export function workspacePathCompleter(session: StoreSession): (value: string) => Promise<string[]> {
  return async (value) => completeWorkspacePath(await maybeStore(session), value);
}

/** Workspace paths starting with `value`, as a shell completes them (one folder level at a time). */
function completeWorkspacePath(paths: StorePaths | undefined, value: string): string[] {
  if (!paths) return [];
  const typed = safeDecode(value).replace(/\\/g, '/');
  const slash = typed.lastIndexOf('/');
  const dirPart = slash >= 0 ? typed.slice(0, slash + 1) : '';
  const dir = path.resolve(paths.workspace, dirPart);
  if (!isInside(paths.workspace, dir)) return [];
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const prefix = typed.slice(slash + 1);
  return names
    .filter((d) => d.name.startsWith(prefix) && !(dirPart === '' && d.name === path.basename(paths.root)) && d.name !== '.git')
    .map((d) => `${dirPart}${d.name}${d.isDirectory() ? '/' : ''}`)
    .sort()
    .slice(0, MAX_COMPLETIONS);
}
