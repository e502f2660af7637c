import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const root = process.argv[2]; const idleMs = Number(process.argv[3] ?? 150); const extra = process.argv.slice(4);
const transport = new StdioClientTransport({ command: process.execPath, args: [...extra, '/work/main/dist/cli.js', 'mcp', '--root', root], env: { ...process.env, LORE_EMBED_PROVIDER: '' }, stderr: 'ignore' });
const client = new Client({ name: 'probe', version: '1' });
await client.connect(transport);
const qs = ['cache', 'index build', 'debounce', 'tor', 'watcher restart', 'parser', 'kashosaqu', 'nodelviren', 'vita', 'fenba'];
await client.callTool({ name: 'search', arguments: { query: 'warm', limit: 10 } });
const t = []; const p = [];
for (let i = 0; i < 40; i++) {
  await new Promise((r) => setTimeout(r, idleMs));
  let s = process.hrtime.bigint();
  await client.ping();
  p.push(Number(process.hrtime.bigint() - s) / 1e6);
  await new Promise((r) => setTimeout(r, idleMs));
  s = process.hrtime.bigint();
  const r = await client.callTool({ name: 'search', arguments: { query: qs[i % qs.length], limit: 10 } });
  t.push(Number(process.hrtime.bigint() - s) / 1e6);
}
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(`idle ${idleMs} ms: search median ${med(t).toFixed(2)} ms, ping ${med(p).toFixed(2)} ms`);
await client.close();
