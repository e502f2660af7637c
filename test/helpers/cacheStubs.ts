/**
 * Prompt-cache simulations for the loopback stubs, closer to the providers than the plain stub's
 * "a repeated system prompt is cached":
 *
 * - anthropicPrefixCache(): a step for startStub('anthropic', …) that caches at the request's
 *   `cache_control` breakpoints as the Messages API does: the longest live breakpoint prefix is
 *   read, the rest up to the last breakpoint is written, hits refresh the TTL (5 min, or 1 h for
 *   `ttl: "1h"`), and prefixes below `minTokens` are silently not cached.
 * - startGeminiCacheStub(): a Gemini server with the cachedContents resource (create, get,
 *   delete), generateContent with `cachedContent`, expiry by a fake clock, the API's "Cached
 *   content is too small" rejection, and its 403 for a cache that is gone.
 *
 * Tokens are estimated as in stubBodies (chars / 4) so tests can predict them.
 */
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorBody, estimateTokens, promptOf, replyBody } from './stubBodies';
import type { StubRequest, StubStep } from './stubServers';

const FIVE_MINUTES = 5 * 60_000;
const ONE_HOUR = 60 * 60_000;

/** The Anthropic prefix cache: the step to play and its entries (prefix hash → expiry, epoch ms). */
export interface AnthropicPrefixCache {
  step: StubStep;
  entries: Map<string, number>;
}

/** Text blocks of a Messages request in the order the API hashes them: system, then messages. */
function anthropicBlocks(body: any): Array<{ text: string; ttl?: string; marked: boolean }> {
  const blocks: Array<{ text: string; ttl?: string; marked: boolean }> = [];
  const add = (content: any) => {
    if (typeof content === 'string') blocks.push({ text: content, marked: false });
    else if (Array.isArray(content)) {
      for (const b of content)
        blocks.push({ text: String(b?.text ?? ''), ttl: b?.cache_control?.ttl, marked: b?.cache_control?.type === 'ephemeral' });
    }
  };
  add(body?.system);
  for (const m of body?.messages ?? []) add(m?.content);
  return blocks;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A step that answers every Anthropic request with usage from a simulated prefix cache. */
export function anthropicPrefixCache(options: { now?: () => number; minTokens?: number; reply?: string } = {}): AnthropicPrefixCache {
  const entries = new Map<string, number>();
  const now = options.now ?? Date.now;
  const minTokens = options.minTokens ?? 0;
  const step = (body: any, request: StubRequest): StubStep => {
    const total = estimateTokens(request.prompt.system) + estimateTokens(request.prompt.user);
    const points: Array<{ hash: string; tokens: number; ttl: number }> = [];
    let prefix = '';
    for (const block of anthropicBlocks(body)) {
      prefix += block.text;
      const tokens = Math.min(total, estimateTokens(prefix));
      if (block.marked && tokens >= minTokens)
        points.push({ hash: sha(prefix), tokens, ttl: block.ttl === '1h' ? ONE_HOUR : FIVE_MINUTES });
    }
    const t = now();
    let read = 0;
    for (const point of points) if ((entries.get(point.hash) ?? 0) > t) read = Math.max(read, point.tokens);
    const last = points.at(-1)?.tokens ?? 0;
    const write = Math.max(0, last - read);
    for (const point of points) entries.set(point.hash, t + point.ttl);
    return { reply: options.reply ?? 'ok', usage: { input: total, cacheRead: read, cacheWrite: write } };
  };
  return { step, entries };
}

/** A cachedContent held by the Gemini stub. */
export interface StubCache {
  name: string;
  model: string;
  text: string;
  tokens: number;
  createdAt: number;
  expiresAt: number;
}

/** A request the Gemini stub received (any route). */
export interface GeminiStubRequest {
  method: string;
  path: string;
  body: any;
}

export interface GeminiCacheStub {
  baseUrl: string;
  requests: GeminiStubRequest[];
  caches: Map<string, StubCache>;
  /** generateContent requests only. */
  generations(): GeminiStubRequest[];
  close(): Promise<void>;
}

function geminiError(res: http.ServerResponse, status: number, message: string): void {
  send(res, status, errorBody('gemini', status, message));
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const partsText = (content: any): string => (content?.parts ?? []).map((p: any) => (typeof p?.text === 'string' ? p.text : '')).join('');

/** Starts the Gemini cachedContents stub on a free loopback port. */
export async function startGeminiCacheStub(
  options: { now?: () => number; minCacheTokens?: number; reply?: string } = {},
): Promise<GeminiCacheStub> {
  const now = options.now ?? Date.now;
  const minTokens = options.minCacheTokens ?? 1024;
  const caches = new Map<string, StubCache>();
  const requests: GeminiStubRequest[] = [];
  let serial = 0;
  const live = (name: string): StubCache | undefined => {
    const cache = caches.get(name);
    if (cache && cache.expiresAt <= now()) caches.delete(name); // the API deletes expired caches
    return caches.get(name);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = raw ? JSON.parse(raw) : undefined;
      const path = (req.url ?? '/').split('?')[0];
      const method = req.method ?? 'GET';
      requests.push({ method, path, body });
      const cacheRoute = /^\/v1(?:beta|alpha)?\/(cachedContents(?:\/[^/]+)?)$/.exec(path);
      const generate = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):generateContent$/.exec(path);
      if (cacheRoute && method === 'POST' && cacheRoute[1] === 'cachedContents') {
        const text = partsText(body?.systemInstruction) + (body?.contents ?? []).map(partsText).join('');
        const tokens = estimateTokens(text);
        if (tokens < minTokens)
          return geminiError(res, 400, `Cached content is too small. total_token_count=${tokens}, min_total_token_count=${minTokens}`);
        const ttlSeconds = Number(String(body?.ttl ?? '3600s').replace(/s$/, ''));
        const cache: StubCache = {
          name: `cachedContents/stub${++serial}`,
          model: String(body?.model ?? ''),
          text,
          tokens,
          createdAt: now(),
          expiresAt: now() + ttlSeconds * 1000,
        };
        caches.set(cache.name, cache);
        return send(res, 200, resource(cache, body?.displayName));
      }
      if (cacheRoute && cacheRoute[1] !== 'cachedContents') {
        const cache = live(cacheRoute[1]);
        if (!cache) return geminiError(res, 403, 'CachedContent not found (or permission denied)');
        if (method === 'DELETE') {
          caches.delete(cache.name);
          return send(res, 200, {});
        }
        return send(res, 200, resource(cache));
      }
      if (generate && method === 'POST') {
        const model = decodeURIComponent(generate[1]);
        const prompt = promptOf('gemini', body, model);
        const reply = options.reply ?? 'ok';
        if (body?.cachedContent) {
          if (body.systemInstruction)
            return geminiError(
              res,
              400,
              'CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config.',
            );
          const cache = live(String(body.cachedContent));
          if (!cache) return geminiError(res, 403, 'CachedContent not found (or permission denied)');
          const input = cache.tokens + estimateTokens(prompt.user);
          const counts = {
            system: 0,
            user: 0,
            output: estimateTokens(reply),
            cached: true,
            forced: { input, cacheRead: cache.tokens, cacheWrite: 0 },
          };
          return send(res, 200, replyBody('gemini', prompt, reply, counts, ++serial));
        }
        const input = estimateTokens(prompt.system) + estimateTokens(prompt.user);
        const counts = { system: 0, user: 0, output: estimateTokens(reply), cached: false, forced: { input, cacheRead: 0, cacheWrite: 0 } };
        return send(res, 200, replyBody('gemini', prompt, reply, counts, ++serial));
      }
      geminiError(res, 404, `stub: no route ${method} ${path}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    caches,
    generations: () => requests.filter((r) => r.path.endsWith(':generateContent')),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  function resource(cache: StubCache, displayName?: string): unknown {
    const created = new Date(cache.createdAt).toISOString();
    return {
      name: cache.name,
      model: cache.model,
      ...(displayName ? { displayName } : {}),
      createTime: created,
      updateTime: created,
      expireTime: new Date(cache.expiresAt).toISOString(),
      usageMetadata: { totalTokenCount: cache.tokens },
    };
  }
}
