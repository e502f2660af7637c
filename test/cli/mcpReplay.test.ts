import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { itemId } from '../../src/core/model/itemId';
import { KNOWLEDGE_FRAMING } from '../../src/core/model/safety/dataFraming';
import { makeWorkspace } from '../helpers/cli';
import { CLI, FIXTURES } from '../helpers/paths';

/**
 * Sessions recorded from what Claude Code, Codex CLI and Gemini CLI send an MCP stdio server
 * (test/fixtures/mcp-sessions/README.md says where each shape comes from), replayed against the
 * real `lore mcp` one message at a time, as the client would: a request waits for its reply, and
 * a request of the server's (roots/list) is answered the way that client answers it.
 */

const SESSIONS = path.join(FIXTURES, 'mcp-sessions');
const DECISION =
  '- We decided to write each order once per checkout, keyed by its idempotency key, because a retried payment call made duplicate refunds [from: c2, 2026-11-20]';
const REPLY_TIMEOUT_MS = 15_000;

interface Message {
  jsonrpc: string;
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

interface Replayed {
  /** The client's messages as sent. */
  sent: Message[];
  /** Every message the server wrote, in order. */
  received: Message[];
  code: number | null;
  stderr: string;
}

/** The session's messages, with `$DECISION_ID` standing for the seeded decision's id. */
function loadSession(file: string, decisionId: string): Message[] {
  return fs
    .readFileSync(path.join(SESSIONS, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line.replaceAll('$DECISION_ID', decisionId)) as Message);
}

/**
 * Starts `lore mcp ARGS` in `cwd` and plays `session` into it. Every line the server writes must
 * be a JSON-RPC message (anything else on stdout would break the client), so a line that does
 * not parse fails the replay.
 */
function replay(session: Message[], args: string[], cwd: string, roots: string[]): Promise<Replayed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'mcp', ...args], {
      cwd,
      env: { ...process.env, LORE_EMBED_PROVIDER: '', LORE_SEARCH_BACKEND: '', LORE_ROOT: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const received: Message[] = [];
    let stderr = '';
    let pending = '';
    let waiting: { id: number | string; done: () => void } | undefined;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      child.kill();
      reject(error);
    };
    const send = (message: object) => child.stdin.write(JSON.stringify(message) + '\n');

    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (!line.trim()) continue;
        let message: Message;
        try {
          message = JSON.parse(line) as Message;
        } catch {
          return fail(new Error(`stdout carried a line that is not JSON-RPC: ${line.slice(0, 300)}`));
        }
        received.push(message);
        if (message.method && message.id !== undefined) {
          // A request of the server's: the roots the client shares, or "not supported" as a client says it.
          if (message.method === 'roots/list') {
            send({
              jsonrpc: '2.0',
              id: message.id,
              result: { roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: path.basename(r) })) },
            });
          } else {
            send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
          }
        } else if (waiting && message.id === waiting.id && message.method === undefined) {
          waiting.done();
        }
      }
    });
    child.on('error', fail);
    child.on('close', (code) => {
      if (failed) return;
      if (pending.trim()) return fail(new Error(`stdout ended inside a line: ${pending.slice(0, 300)}`));
      resolve({ sent: session, received, code, stderr });
    });

    void (async () => {
      for (const message of session) {
        if (failed) return;
        if (message.id === undefined) {
          send(message);
          continue;
        }
        await new Promise<void>((done, timedOut) => {
          const timer = setTimeout(
            () => timedOut(new Error(`no reply to ${message.method} (id ${message.id}); stderr: ${stderr}`)),
            REPLY_TIMEOUT_MS,
          );
          waiting = {
            id: message.id!,
            done: () => {
              clearTimeout(timer);
              done();
            },
          };
          send(message);
        }).catch(fail);
      }
      child.stdin.end();
    })();
  });
}

/** The reply to the client's request `id`. */
function replyTo(replayed: Replayed, id: number | string): Message {
  const reply = replayed.received.find((m) => m.id === id && m.method === undefined);
  assert.ok(reply, `a reply to request ${id}`);
  assert.equal(reply.error, undefined, `request ${id} answered with an error: ${JSON.stringify(reply.error)}`);
  return reply;
}

/** The id of the session's call of `tool` with argument `argument`. */
function callId(replayed: Replayed, tool: string, argument: string): number | string {
  const call = replayed.sent.find(
    (m) => m.method === 'tools/call' && m.params?.name === tool && argument in (m.params.arguments as object),
  );
  assert.ok(call?.id !== undefined, `the session calls ${tool} with ${argument}`);
  return call.id;
}

function textOf(result: Record<string, unknown>): string {
  return (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
}

const CLIENTS = [
  // Claude Code from a project's shared .mcp.json: no --root, started in a subfolder, and it shares its roots.
  { name: 'Claude Code', file: 'claude-code.jsonl', withRoot: false, clientName: 'claude-code' },
  { name: 'Codex CLI', file: 'codex.jsonl', withRoot: true, clientName: 'codex-mcp-client' },
  { name: 'Gemini CLI', file: 'gemini-cli.jsonl', withRoot: true, clientName: 'gemini-cli-mcp-client' },
];

for (const client of CLIENTS) {
  describe(`lore mcp: a recorded ${client.name} session replays`, function () {
    this.timeout(60_000);
    let replayed: Replayed;
    let root: string;
    const decisionId = itemId(DECISION);

    before(async () => {
      const made = await makeWorkspace();
      root = made.root;
      fs.writeFileSync(path.join(root, 'decisions.md'), `# Decisions\n\n${DECISION}\n`);
      const args = client.withRoot ? ['--root', root] : [];
      replayed = await replay(loadSession(client.file, decisionId), args, path.join(made.ws, 'src'), [made.ws]);
    });

    it('the server exits cleanly when the client closes, and wrote only JSON-RPC 2.0 on stdout', () => {
      assert.equal(replayed.code, 0, replayed.stderr);
      for (const message of replayed.received) assert.equal(message.jsonrpc, '2.0', JSON.stringify(message));
    });

    it('asks for the roots only of a client that shares them and names no store', () => {
      const asked = replayed.received.some((m) => m.method === 'roots/list');
      assert.equal(asked, !client.withRoot && 'roots' in (replayed.sent[0].params!.capabilities as object));
    });

    it("negotiates the client's protocol revision", () => {
      const initialize = replayed.sent.find((m) => m.method === 'initialize')!;
      const result = replyTo(replayed, initialize.id!).result!;
      assert.equal(result.protocolVersion, initialize.params!.protocolVersion);
      assert.equal((result.serverInfo as { name: string }).name, 'lore');
    });

    it('lists the five tools', () => {
      const list = replayed.sent.find((m) => m.method === 'tools/list')!;
      const tools = replyTo(replayed, list.id!).result!.tools as Array<{ name: string }>;
      assert.deepEqual(tools.map((t) => t.name).sort(), ['change_item', 'open_conversation', 'remember', 'search', 'tasks']);
    });

    it('answers every request of the session, the extra _meta fields included, with no error', () => {
      for (const message of replayed.sent) {
        if (message.id === undefined) continue;
        const reply = replyTo(replayed, message.id);
        if (message.method === 'tools/call') assert.notEqual(reply.result!.isError, true, textOf(reply.result!));
      }
    });

    it('a search answers framed as data, with the ids a follow-up call takes, in the text and the structured content', () => {
      const result = replyTo(replayed, callId(replayed, 'search', 'query')).result!;
      const text = textOf(result);
      assert.ok(text.startsWith(`${KNOWLEDGE_FRAMING}\n`), text);
      assert.match(text, new RegExp(`\\[decisions ${decisionId}\\] We decided to write each order once per checkout`));
      const structured = result.structuredContent as { framing: string; items: Array<{ id: string }> };
      assert.equal(structured.framing, KNOWLEDGE_FRAMING);
      assert.ok(
        structured.items.some((i) => i.id === decisionId),
        JSON.stringify(structured),
      );
    });

    it('a search by ids answers with the whole item', () => {
      const result = replyTo(replayed, callId(replayed, 'search', 'ids')).result!;
      const text = textOf(result);
      assert.ok(text.startsWith(`${KNOWLEDGE_FRAMING}\n`), text);
      assert.ok(text.includes(decisionId) && text.includes('a retried payment call made duplicate refunds'), text);
    });

    it('a remember answers with the new item id', () => {
      const result = replyTo(replayed, callId(replayed, 'remember', 'statement')).result!;
      const id = (result.structuredContent as { id?: string }).id;
      assert.match(id ?? '', /^[0-9a-z]{8}$/, JSON.stringify(result));
      assert.ok(textOf(result).includes(id!), textOf(result));
    });

    it("records the remembered item under the client's name", () => {
      const store = ['review.md', 'decisions.md'].map((f) => fs.readFileSync(path.join(root, f), 'utf8')).join('\n');
      assert.match(store, new RegExp(`Refunds go through the order service.*${client.clientName}`), store);
    });
  });
}
