import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseProvenance } from '../../src/core/model/provenance';
import { REPO_ROOT } from '../helpers/paths';

interface Grammar {
  scopeName: string;
  injectionSelector: string;
  patterns: Array<{ include: string }>;
  repository: { provenance: { match: string; captures: Record<string, { name: string }> } };
}

describe('TextMate injection grammar for provenance', () => {
  const grammar = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'syntaxes', 'lore-provenance.tmLanguage.json'), 'utf8')) as Grammar;
  // The pattern uses only syntax Oniguruma and JavaScript read alike, so JS can check it.
  const pattern = new RegExp(grammar.repository.provenance.match);

  it('injects into markdown outside code, with separate scopes for id and date', () => {
    assert.equal(grammar.scopeName, 'lore.provenance.injection');
    assert.match(grammar.injectionSelector, /^L:text\.html\.markdown /);
    assert.match(grammar.injectionSelector, /-markup\.fenced_code/);
    const scopes = grammar.repository.provenance.captures;
    assert.equal(scopes['4'].name, 'entity.name.type.conversation-id.lore');
    assert.equal(scopes['6'].name, 'constant.numeric.date.lore');
  });

  it('colours exactly the markers core parses as provenance', () => {
    const lines = [
      '- Uses ephemeral cache [from: 3f2a9c1e, 2026-11-21]',
      '- **build**: npm run build [from: claude-session-42,2026-01-05]  ',
      '- spaces [from:   manual ,  2026-11-22 ]',
      '- not trailing [from: a, 2026-11-20] more',
      '- unclosed [from: a, 2026-11-20',
      '- no date [from: a]',
      '- bad id [from: a]b, 2026-11-20]',
      '- merged [from: a, 2026-11-20; b, 2026-11-24; c:s1, 2026-11-25]',
      '- merged, half an entry [from: a, 2026-11-20; b]',
      '- plain line',
    ];
    for (const line of lines) {
      const parsed = parseProvenance(line);
      const match = pattern.exec(line);
      assert.equal(Boolean(match), Boolean(parsed), line);
      if (match && parsed) {
        assert.equal(match[4], parsed.source, line);
        assert.equal(match[6], parsed.date, line);
        assert.equal(match.index, parsed.start, line);
        // Every further source is inside the marker's "more sources" scope.
        assert.equal((match[7].match(/\d{4}-\d{2}-\d{2}/g) ?? []).length, parsed.sources.length - 1, line);
      }
    }
  });
});
