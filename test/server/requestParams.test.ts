/**
 * The server checks what its client sends before acting on it: a request whose params do not
 * fit is refused with InvalidParams naming the method and the field, and nothing is written.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorCodes } from 'vscode-languageserver-protocol';
import { DeleteNoteRequest, DidDeleteFilesRequest, NotesForFileRequest, SearchRequest } from '../../src/shared/protocol';
import type { LspTestClient } from './lspClient';
import { makeWorkspace } from './serverFixtures';

async function refusal(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; message: string };
  }
  assert.fail('the request was accepted');
}

describe('language server: request params are checked', function () {
  let client: LspTestClient;
  afterEach(async () => client?.stop());

  it('refuses malformed params with InvalidParams naming the field, and writes nothing', async () => {
    const w = makeWorkspace();
    const file = w.write('kept.ts', 'export {};\n');
    w.note('kept.ts', ['- still here [from: conv-1, 2026-11-20]']);
    const before = fs.readFileSync(
      path.join(
        w.paths.files,
        fs.readdirSync(w.paths.files).find((n) => n.endsWith('.md'))!,
      ),
      'utf8',
    );
    client = await w.start();
    const send = (method: string, params: unknown) => client.connection.sendRequest(method, params);

    const search = await refusal(send(SearchRequest.method, { query: 42 }));
    assert.equal(search.code, ErrorCodes.InvalidParams);
    assert.match(search.message, /^lore\/search: query: .*string/);

    const deleted = await refusal(send(DidDeleteFilesRequest.method, { files: 'kept.ts' }));
    assert.equal(deleted.code, ErrorCodes.InvalidParams);
    assert.match(deleted.message, /^lore\/didDeleteFiles: files: .*array/);

    const note = await refusal(send(DeleteNoteRequest.method, { noteFile: file, line: -1, raw: '' }));
    assert.match(note.message, /^lore\/deleteNote: line: /);

    assert.match((await refusal(send(NotesForFileRequest.method, {}))).message, /^lore\/notesForFile: path: /);

    // Nothing happened to the notes, and a well-formed request still works.
    const found = await client.connection.sendRequest(NotesForFileRequest.type, { path: file });
    assert.equal(found?.notes.length, 1);
    const noteFile = path.join(
      w.paths.files,
      fs.readdirSync(w.paths.files).find((n) => n.endsWith('.md'))!,
    );
    assert.equal(fs.readFileSync(noteFile, 'utf8'), before);
    const facts = path.join(w.paths.root, 'facts.md');
    assert.ok(!fs.existsSync(facts) || !fs.readFileSync(facts, 'utf8').includes('still here'));
  });
});
