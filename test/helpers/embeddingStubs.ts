/**
 * A loopback server speaking the embedding APIs of OpenAI (`POST /v1/embeddings`, float or
 * base64), Gemini (`POST /v1beta/models/{m}:batchEmbedContents` and `:embedContent`) and Ollama
 * (`POST /api/embed`), so the official SDKs run unchanged against it.
 *
 * Vectors are deterministic bags of words over a small dimension, with a synonym table, so
 * "automobile" lands near "car" although the words differ (what a lexical index cannot do):
 *
 * | kind     | baseUrl to pass                 |
 * |----------|---------------------------------|
 * | `openai` | `http://127.0.0.1:PORT/v1`      |
 * | `gemini` | `http://127.0.0.1:PORT`         |
 * | `ollama` | `http://127.0.0.1:PORT`         |
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type EmbeddingStubKind = 'openai' | 'gemini' | 'ollama';

/** Words that embed like another word. */
const SYNONYMS: Record<string, string> = { automobile: 'car', vehicle: 'car', cars: 'car', sedan: 'car', feline: 'cat', kitten: 'cat' };

export const STUB_DIM = 64;

/** The stub's embedding of a text: word counts hashed into STUB_DIM buckets. */
export function stubEmbedding(text: string): number[] {
  const v = new Array<number>(STUB_DIM).fill(0);
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const word = SYNONYMS[raw] ?? raw;
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619) >>> 0;
    v[h % STUB_DIM] += 1;
  }
  // A small constant component keeps every vector non-zero.
  v[0] += 0.01;
  return v;
}

export interface EmbeddingStub {
  baseUrl: string;
  /** Every text embedded, in order. */
  texts: string[];
  /** Requests received (path and parsed body). */
  requests: Array<{ path: string; body: any }>;
  /** When set, every request fails with this HTTP status. */
  failWith: number | undefined;
  close(): Promise<void>;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function base64Of(values: number[]): string {
  return Buffer.from(Float32Array.from(values).buffer).toString('base64');
}

function partsText(content: any): string {
  return (content?.parts ?? []).map((p: any) => (typeof p?.text === 'string' ? p.text : '')).join('');
}

/** Starts the stub for one kind. */
export async function startEmbeddingStub(kind: EmbeddingStubKind): Promise<EmbeddingStub> {
  const stub: Omit<EmbeddingStub, 'baseUrl' | 'close'> = { texts: [], requests: [], failWith: undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const route = (req.url ?? '/').split('?')[0];
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      stub.requests.push({ path: route, body });
      if (stub.failWith) {
        send(
          res,
          stub.failWith,
          kind === 'gemini'
            ? { error: { code: stub.failWith, message: 'stub failure', status: 'INTERNAL' } }
            : { error: { message: 'stub failure' } },
        );
        return;
      }
      const embed = (texts: string[]) => {
        stub.texts.push(...texts);
        return texts.map(stubEmbedding);
      };
      if (kind === 'openai' && route === '/v1/embeddings') {
        const input: string[] = Array.isArray(body?.input) ? body.input : [String(body?.input ?? '')];
        const vectors = embed(input);
        const data = vectors.map((v, index) => ({
          object: 'embedding',
          index,
          embedding: body?.encoding_format === 'base64' ? base64Of(v) : v,
        }));
        send(res, 200, { object: 'list', data, model: body?.model, usage: { prompt_tokens: input.length, total_tokens: input.length } });
        return;
      }
      const gemini = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(batchEmbedContents|embedContent)$/.exec(route);
      if (kind === 'gemini' && gemini) {
        if (gemini[2] === 'embedContent') {
          send(res, 200, { embedding: { values: embed([partsText(body?.content)])[0] } });
          return;
        }
        const vectors = embed((body?.requests ?? []).map((r: any) => partsText(r?.content)));
        send(res, 200, { embeddings: vectors.map((values) => ({ values })) });
        return;
      }
      if (kind === 'ollama' && route === '/api/embed') {
        const input: string[] = Array.isArray(body?.input) ? body.input : [String(body?.input ?? '')];
        send(res, 200, { model: body?.model, embeddings: embed(input), prompt_eval_count: input.length });
        return;
      }
      send(res, 404, { error: `stub: no route ${req.method} ${route} for ${kind}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const result = stub as EmbeddingStub;
  result.baseUrl = kind === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
  result.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return result;
}
