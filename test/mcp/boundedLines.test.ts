import * as assert from 'node:assert/strict';
import { BoundedLineSplitter, type LineEvent } from '../../src/mcp/boundedLines';
import { RequestIdScanner } from '../../src/mcp/requestIdScanner';

/** Feeds `text` in chunks of `size` bytes and collects the events. */
function split(splitter: BoundedLineSplitter, text: string, size: number): LineEvent[] {
  const bytes = Buffer.from(text, 'utf8');
  const events: LineEvent[] = [];
  for (let i = 0; i < bytes.length; i += size) events.push(...splitter.push(bytes.subarray(i, i + size)));
  return events;
}

function idOf(line: string, chunk = 7): unknown {
  const scanner = new RequestIdScanner();
  const bytes = Buffer.from(line, 'utf8');
  for (let i = 0; i < bytes.length; i += chunk) scanner.feed(bytes.subarray(i, i + chunk));
  return scanner.id;
}

describe('bounded line splitting (lore mcp stdin)', () => {
  it('splits lines across chunk boundaries, strips \\r, keeps multi-byte characters whole', () => {
    const events = split(new BoundedLineSplitter(100), 'first\r\nsecond — é日\nthird\n\npartial', 3);
    assert.deepEqual(events, [{ line: 'first' }, { line: 'second — é日' }, { line: 'third' }, { line: '' }]);
  });

  it('drops a line over the limit as it streams, reports its size and id once it ends, and goes on', () => {
    const splitter = new BoundedLineSplitter(64);
    const big = JSON.stringify({
      jsonrpc: '2.0',
      method: 'tools/call',
      params: { text: 'x'.repeat(500), nested: { id: 99 } },
      id: 'req-7',
    });
    const events = split(splitter, `${big}\n{"ok":1}\n`, 10);
    assert.deepEqual(events, [{ oversized: { bytes: Buffer.byteLength(big), id: 'req-7' } }, { line: '{"ok":1}' }]);
    // Exactly at the limit is fine.
    assert.deepEqual(split(new BoundedLineSplitter(8), '12345678\n', 3), [{ line: '12345678' }]);
  });

  it('finds only the top-level id of an object, whatever comes around it', () => {
    assert.equal(idOf('{"jsonrpc":"2.0","id":5,"method":"x","params":{"id":6}}'), 5);
    assert.equal(idOf('{"params":{"id":6,"s":"\\"id\\":7, {"},"id" : "a,b\\"}c" }'), 'a,b"}c');
    assert.equal(idOf('{"method":"x","params":{"a":[1,{"id":2}]}}'), undefined);
    assert.equal(idOf('{"id":{"x":1}}'), undefined);
    assert.equal(idOf('{"id":1.5}'), undefined);
    assert.equal(idOf('{"id":null}'), undefined);
    assert.equal(idOf('[{"id":1}]'), undefined);
    assert.equal(idOf('{"idx":1,"xid":2}'), undefined);
    assert.equal(idOf(`{"id":"${'z'.repeat(300)}"}`), undefined, 'an id too long to echo');
    assert.equal(idOf('{"id":3', 1), undefined, 'no id until its value ends');
  });
});
