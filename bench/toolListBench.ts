/**
 * What Lore's MCP surface costs an agent in tokens (o200k_base, the tokenizer of OpenAI's current
 * models; counts of other models' tokenizers differ by a few percent), against the reference
 * memory server (@modelcontextprotocol/server-memory) measured in the same run:
 *  1. the tools/list result, which Codex and Gemini CLI send with every request: Lore's five tools
 *     against the reference server's nine (before issue 29 Lore listed nineteen tools at about
 *     11,000 tokens); and whether two server starts list the same bytes (clients cache the list);
 *  2. the replies to five typical look-ups on the same five facts: what a client hands the model,
 *     the structured content when the reply has one (Claude Code, Codex), else the text.
 * Token counts do not vary between runs: each figure is one sample.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { getEncoding } from 'js-tiktoken';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { baselineOf, freshScratchDir, formatNumber, makeResult, type BenchContext, type BenchResult } from './benchSupport';

const TOOL_LIST_TARGET = 3000;

/** The same five facts in both memories, and a look-up each (words both servers can match). */
const FACTS: Array<{ entity: string; fact: string; query: string }> = [
  { entity: 'build', fact: 'the build uses esbuild for bundling, not webpack', query: 'esbuild' },
  { entity: 'deploy', fact: 'deploys run through GitHub Actions on every tag', query: 'GitHub Actions' },
  { entity: 'database', fact: 'the orders database is Postgres 16, migrated with sqitch', query: 'Postgres' },
  { entity: 'release', fact: 'release tags are signed and the registry checks the signature', query: 'signed' },
  { entity: 'payments', fact: 'payment calls retry three times with idempotency keys', query: 'idempotency' },
];

const encoding = getEncoding('o200k_base');
const tokens = (text: string) => encoding.encode(text).length;

async function connect(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'lore-bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args,
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: 'ignore',
    }),
  );
  return client;
}

/** What a client hands the model from a reply: the structured content when there is one, else the text. */
function readByModel(result: CallToolResult): string {
  if (result.structuredContent) return JSON.stringify(result.structuredContent);
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const dir = freshScratchDir(ctx, 'tool-list');
  const root = path.join(dir, 'ws', '.lore');
  const cli = path.join(ctx.repoRoot, 'dist', 'cli.js');
  fs.mkdirSync(path.dirname(root), { recursive: true });
  const init = spawnSync(process.execPath, [cli, 'init', '--root', root], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`lore init failed: ${init.stderr}`);
  fs.writeFileSync(path.join(root, 'facts.md'), `# Facts\n\n${FACTS.map((f) => `- ${f.fact} [from: c1, 2026-11-20]`).join('\n')}\n`);
  const memoryFile = path.join(dir, 'memory.jsonl');
  fs.writeFileSync(
    memoryFile,
    FACTS.map((f) => JSON.stringify({ type: 'entity', name: f.entity, entityType: 'fact', observations: [f.fact] })).join('\n') + '\n',
  );
  const serverMemory = path.join(ctx.repoRoot, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
  const loreArgs = [cli, 'mcp', '--root', root];
  const env = { LORE_EMBED_PROVIDER: '', LORE_SEARCH_BACKEND: '' };

  const memory = await connect([serverMemory], { MEMORY_FILE_PATH: memoryFile });
  const lore = await connect(loreArgs, env);
  const again = await connect(loreArgs, env);
  try {
    const loreList = JSON.stringify(await lore.listTools());
    const sameBytes = JSON.stringify(await again.listTools()) === loreList;
    const memoryList = JSON.stringify(await memory.listTools());
    const listBaseline = baselineOf('server-memory tools/list', 'tokens', [tokens(memoryList)]);
    const list = makeResult({
      name: 'tools/list tokens (o200k_base)',
      unit: 'tokens',
      samples: [tokens(loreList)],
      baseline: listBaseline,
      target: { on: 'value', op: '<=', threshold: TOOL_LIST_TARGET },
    });
    list.notes = [
      `${(JSON.parse(loreList) as { tools: unknown[] }).tools.length} tools, ${formatNumber(Buffer.byteLength(loreList) / 1024)} KB; before issue 29: 19 tools, about 11,000 tokens`,
      `two server starts list ${sameBytes ? 'the same bytes' : 'DIFFERENT bytes'}`,
    ];

    const loreReplies: number[] = [];
    const memoryReplies: number[] = [];
    let loreFound = 0;
    let memoryFound = 0;
    for (const { query, fact } of FACTS) {
      const mine = (await lore.callTool({ name: 'search', arguments: { query } })) as CallToolResult;
      const theirs = (await memory.callTool({ name: 'search_nodes', arguments: { query } })) as CallToolResult;
      loreReplies.push(tokens(readByModel(mine)));
      memoryReplies.push(tokens(readByModel(theirs)));
      if (readByModel(mine).includes(fact)) loreFound++;
      if (readByModel(theirs).includes(fact)) memoryFound++;
    }
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const replies = makeResult({
      name: 'reply tokens, 5 look-ups (what the model reads)',
      unit: 'tokens',
      samples: [sum(loreReplies)],
      baseline: baselineOf('server-memory search_nodes', 'tokens', [sum(memoryReplies)]),
    });
    replies.notes = [
      `per look-up: Lore ${loreReplies.join(', ')}; server-memory ${memoryReplies.join(', ')}`,
      `the fact found: Lore ${loreFound} of 5, server-memory ${memoryFound} of 5; Lore's reply carries the data framing and each item's id, source and file:line`,
    ];
    return [list, replies];
  } finally {
    await Promise.all([memory.close(), lore.close(), again.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
