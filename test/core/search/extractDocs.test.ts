import * as assert from 'node:assert/strict';
import { extractDocs } from '../../../src/core/services/search/extractDocs';
import type { SourceFileInfo } from '../../../src/core/services/search/sourceFiles';
import { ALNUM, cat, fake } from '../safety/secretSamples';

function source(rel: string, kind: SourceFileInfo['kind'], category?: SourceFileInfo['category']): SourceFileInfo {
  return { rel, abs: `/store/${rel}`, kind, category, mtimeMs: 0, size: 0 };
}

describe('search documents: the redaction boundary', () => {
  const token = cat('ghp_', fake(ALNUM, 36));

  it('redacts a secret in the noted path, section and source of every item, however often they repeat', () => {
    const notes = Array.from({ length: 40 }, (_, i) => `- note ${i} about the client [from: sess-${token}, 2026-11-2${i % 9}]`);
    const noteText = `---\npath: "src/${token}.ts"\n---\n# src/x.ts\n\n${notes.join('\n')}\n`;
    const facts = Array.from({ length: 40 }, (_, i) => `- fact ${i} [from: sess-${token}, 2026-11-20]`);
    const factText = `# Facts\n\n## Keys ${token}\n\n${facts.join('\n')}\n`;
    // Twice each: a second file with the same fields must be redacted as well as the first.
    const docs = [
      ...extractDocs(source('files/1-2.md', 'notes'), noteText),
      ...extractDocs(source('facts.md', 'category', 'facts'), factText),
      ...extractDocs(source('files/1-3.md', 'notes'), noteText),
      ...extractDocs(source('facts.md', 'category', 'facts'), factText),
    ];
    assert.equal(docs.length, 160);
    for (const doc of docs) {
      assert.doesNotMatch(JSON.stringify(doc), /ghp_/, `${doc.file}:${doc.line}`);
      assert.match(doc.source ?? '', /^sess-\[REDACTED:[\w-]+\]$/);
      assert.match(doc.context, /\[REDACTED:/);
    }
    assert.ok(docs.filter((d) => d.notedPath).every((d) => /^src\/\[REDACTED:[\w-]+\]\.ts$/.test(d.notedPath!)));
    assert.ok(docs.filter((d) => d.category === 'facts').every((d) => /^Keys \[REDACTED:[\w-]+\]$/.test(d.section!)));
  });
});
