import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../helpers/eventually';
import { connectLoreMcp } from '../helpers/mcpClient';
import { makeTempDir } from '../helpers/paths';
import { generateLargeStore, type LargeStore } from '../server/largeStore';

/** Note files in the store: enough that its first index takes many slices of the build. */
const FILES = 2000;

/** The text of a tool result. */
function textOf(result: CallToolResult): string {
  return (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

interface Structured {
  items: Array<{ path?: string; text: string }>;
  warnings?: string[];
}

/** The build's progress as a reply's warning says it (files indexed of the store's), when it is still running. */
function indexingOf(result: CallToolResult): { done: number; total: number } | undefined {
  const warning = ((result.structuredContent as unknown as Structured).warnings ?? []).find((w) => w.includes('still being built'));
  if (!warning) return undefined;
  const counts = / \(([\d,]+) of ([\d,]+) files indexed\)/.exec(warning);
  const number = (text: string) => Number(text.replace(/,/g, ''));
  return counts ? { done: number(counts[1]), total: number(counts[2]) } : { done: 0, total: 0 };
}

describe('lore mcp on a large store without an index: nothing blocks (SDK client)', function () {
  this.timeout(120_000);
  let store: LargeStore;
  let client: Client | undefined;

  before(() => {
    store = generateLargeStore(makeTempDir(), FILES, 3);
  });

  beforeEach(() => fs.rmSync(store.paths.index, { recursive: true, force: true }));

  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  after(() => fs.rmSync(store.ws, { recursive: true, force: true }));

  it('answers the first search at once from the part indexed so far, says the index is still being built, and finds everything once it is', async () => {
    let stderr: () => string;
    ({ client, stderr } = await connectLoreMcp(store.paths.root, { env: { LORE_MCP_INDEX_WAIT_MS: '0' } }));
    const tool = 'search';
    const search = (query: string) => client!.callTool({ name: tool, arguments: { query, limit: 10 } }) as Promise<CallToolResult>;

    const first = await search('Module 1777');
    assert.ok(!first.isError, textOf(first));
    const early = { ...(first.structuredContent as unknown as Structured), indexing: indexingOf(first)! };
    assert.ok(early.indexing, `the first answer comes before the build is done: ${textOf(first)}`);
    // On a busy machine the first answer can come before the build has listed the store's files:
    // it then says the build is running without counts (total 0), never a wrong total.
    assert.ok(early.indexing.total === FILES || (early.indexing.total === 0 && early.indexing.done === 0), JSON.stringify(early.indexing));
    assert.ok(early.indexing.done < FILES);
    const counted = early.indexing.total ? / \(\d+ of 2000 files indexed\)/.source : '';
    assert.match(textOf(first), new RegExp(`the search index is still being built${counted}`));
    assert.ok(early.warnings?.some((w) => w.includes('still being built')));

    // The server keeps answering while it builds, and the build completes on its own.
    const complete = await eventually(
      async () => {
        const answer = await search('Module 1777');
        return indexingOf(answer) ? undefined : answer;
      },
      60_000,
      'an answer from the complete index',
    );
    const hits = (complete.structuredContent as unknown as Structured).items;
    assert.equal(hits.length, 3, textOf(complete));
    for (const hit of hits) {
      assert.equal(hit.path, store.relative(1777));
      assert.match(hit.text, /^Module 1777 note \d: /);
    }
    assert.doesNotMatch(textOf(complete), /still being built/);
    assert.doesNotMatch(stderr(), /error/i);
  });

  it('sends progress notifications while a call waits for the index, when the client asks for them', async () => {
    ({ client } = await connectLoreMcp(store.paths.root, { env: { LORE_MCP_INDEX_WAIT_MS: '600000' } }));
    const tool = 'search';
    const progress: Progress[] = [];
    const result = (await client.callTool({ name: tool, arguments: { query: 'Module 42 note 1', limit: 5 } }, undefined, {
      onprogress: (p) => progress.push(p),
      timeout: 120_000,
    })) as CallToolResult;
    assert.ok(!result.isError, textOf(result));
    assert.equal(indexingOf(result), undefined, 'the call waited for the whole index');
    assert.ok(progress.length >= 2, `progress notifications: ${JSON.stringify(progress)}`);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i].progress > progress[i - 1].progress, 'progress only increases');
    // The first may come before the files are counted (no total yet); the rest count them.
    const counted = progress.filter((p) => p.total !== undefined);
    assert.ok(counted.length >= 1 && counted.length >= progress.length - 1, JSON.stringify(progress));
    assert.ok(counted.every((p) => p.total === FILES && p.progress <= FILES));
    assert.match(counted[0].message ?? '', /^indexing the store: [\d,]+ of 2,000 files$/);
    assert.equal((result.structuredContent as unknown as Structured).items[0]?.path, store.relative(42));
  });

  it('a cancelled call stops waiting; the server answers the next calls, and the build goes on', async () => {
    let stderr: () => string;
    ({ client, stderr } = await connectLoreMcp(store.paths.root, { env: { LORE_MCP_INDEX_WAIT_MS: '600000' } }));
    const tool = 'search';
    const abort = new AbortController();
    const cancelled = client.callTool({ name: tool, arguments: { query: 'Module 7 note 2' } }, undefined, {
      signal: abort.signal,
      // Cancelled as soon as the call is seen waiting on the build.
      onprogress: () => abort.abort('the agent moved on'),
    });
    await assert.rejects(cancelled, /the agent moved on/);
    await eventually(
      async () => (/search cancelled by the client/.test(stderr()) ? true : undefined),
      10_000,
      'the server noting the cancellation',
    );

    // Not held by the cancelled call: other tools answer, and a later search gets the finished index.
    const digest = (await client.callTool({ name: 'search', arguments: {} })) as CallToolResult;
    assert.ok(!digest.isError, textOf(digest));
    const later = (await client.callTool({ name: tool, arguments: { query: 'Module 7 note 2' } }, undefined, {
      timeout: 120_000,
    })) as CallToolResult;
    const structured = later.structuredContent as unknown as Structured;
    assert.equal(indexingOf(later), undefined);
    assert.equal(structured.items[0]?.path, store.relative(7));
    assert.ok(fs.existsSync(path.join(store.paths.index, 'lore.sqlite')));
  });
});
