/**
 * What Lore's stdio transport writes: every string of a message without invisible characters,
 * whether it came raw (a zero-width space, a C1 control) or as a JSON escape (ESC, backspace,
 * form feed), the client's request id as it was sent; a message without any, as JSON.stringify
 * writes it.
 */
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LoreStdioTransport } from '../../src/mcp/stdioTransport';

/** The line the transport writes for `message`. */
async function lineFor(message: JSONRPCMessage): Promise<string> {
  const stdout = new PassThrough();
  let written = '';
  stdout.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  const transport = new LoreStdioTransport(new PassThrough(), stdout);
  await transport.start();
  await transport.send(message);
  await transport.close();
  return written;
}

const reply = (text: string, id: string | number = 1): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text }], structuredContent: { items: [{ text, file: 'facts.md' }] } },
});

describe('MCP stdio transport: what goes on the wire', () => {
  it('strips invisible characters from every string, raw or escaped in JSON, and keeps the request id', async () => {
    for (const hidden of ['\u200b', '\u202e', '\u0085', '\u007f', '\u001b', '\u0008', '\u000c', '\u0000', '\u{e0041}']) {
      const line = await lineFor(reply(`run${hidden} the tests`, `id${hidden}`));
      assert.ok(line.endsWith('\n') && !line.slice(0, -1).includes('\n'), JSON.stringify(line));
      const parsed = JSON.parse(line) as {
        id: string;
        result: { content: Array<{ text: string }>; structuredContent: { items: Array<{ text: string }> } };
      };
      const label = `U+${hidden.codePointAt(0)!.toString(16)}`;
      assert.equal(parsed.result.content[0].text, 'run the tests', label);
      assert.equal(parsed.result.structuredContent.items[0].text, 'run the tests', label);
      assert.equal(parsed.id, `id${hidden}`, `${label}: the id comes back as sent`);
    }
  });

  it('writes a message without invisible characters as it is: tabs, line breaks, backslashes and quotes kept', async () => {
    for (const text of ['plain text', 'a\ttab\nand a line\r\n', 'C:\\build\\bin and \\u0041 as typed', 'say "hi"', 'emoji 😀 and ü']) {
      const message = reply(text);
      assert.equal(await lineFor(message), JSON.stringify(message) + '\n', JSON.stringify(text));
    }
  });
});

describe('MCP stdio transport: what it reads', () => {
  /** What the transport makes of one line: the message it hands the server, or the error it answers. */
  async function readOne(line: string): Promise<{ message?: unknown; error?: { id: unknown; code: number } }> {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let written = '';
    stdout.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
    const transport = new LoreStdioTransport(stdin, stdout);
    let message: unknown;
    transport.onmessage = (m) => (message = m);
    await transport.start();
    stdin.write(line + '\n');
    await new Promise((resolve) => setImmediate(resolve));
    await transport.close();
    const reply = written ? (JSON.parse(written.split('\n')[0]) as { id: unknown; error: { code: number } }) : undefined;
    return { ...(message === undefined ? {} : { message }), ...(reply ? { error: { id: reply.id, code: reply.error.code } } : {}) };
  }

  it('hands on what the SDK message schema accepts, as it accepts it, and refuses the rest (requests read without the schema too)', async () => {
    const lines: unknown[] = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query: 'x' } } },
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { _meta: { progressToken: 7 }, name: 'search' } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { _meta: { progressToken: 1.5 } } },
      { jsonrpc: '2.0', id: 1.5, method: 'ping' },
      { jsonrpc: '2.0', id: 2 ** 60, method: 'ping' },
      { jsonrpc: '2.0', id: null, method: 'ping' },
      { jsonrpc: '2.0', id: 4, method: 'ping', extra: true },
      { jsonrpc: '2.0', id: 5, method: 'ping', params: [] },
      { jsonrpc: '2.0', id: 6, method: 'ping', params: null },
      { jsonrpc: '1.0', id: 7, method: 'ping' },
      { jsonrpc: '2.0', id: 8, method: 9 },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 9, result: {} },
    ];
    for (const value of lines) {
      const read = await readOne(JSON.stringify(value));
      const schema = JSONRPCMessageSchema.safeParse(value);
      if (schema.success) assert.deepEqual(read, { message: schema.data }, JSON.stringify(value));
      else {
        assert.equal(read.message, undefined, JSON.stringify(value));
        assert.ok(read.error, JSON.stringify(value));
      }
    }
  });
});
