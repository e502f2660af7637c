import * as assert from 'node:assert/strict';
import { marked } from 'marked';
import { escapeMarkdown } from '../../src/core/base/markdownEscape';
import { HOVER_ENABLED_COMMANDS } from '../../src/shared/protocol';
import type { LspTestClient } from './lspClient';
import { makeWorkspace } from './serverFixtures';

/** Note text that tries every way of getting markup or a command link into a hover. */
const HOSTILE = [
  'Click [here](command:workbench.action.terminal.new?%5B%5D) or <a href="command:workbench.action.files.delete">this</a>',
  '<img src=x onerror=alert(1)> ![pic](https://evil.example/x.png) <script>alert(1)</script>',
  '`code` **bold** _em_ # not a heading | table | https://evil.example/p www.evil.example',
  '[ref]: command:workbench.action.openSettings and [ref] <command:workbench.action.quit> &lt;b&gt;',
];

describe('language server: hover safety', function () {
  it('escapes markdown, HTML and links in notes: only Lore command links render', async () => {
    const w = makeWorkspace();
    const file = w.write('evil.ts', 'export {};\n');
    w.note('evil.ts', [
      ...HOSTILE.map((t) => `- ${t} [from: conv-1, 2026-11-20]`),
      '- sneaky source [from: x)(command:workbench.action.quit, 2026-11-20]',
      '- icon [from: $(alert), 2026-11-20]',
      '- merged [from: conv-1, 2026-11-20; y)(command:workbench.action.quit, 2026-11-21; $(bell), 2026-11-22]',
    ]);
    const client: LspTestClient = await w.start();
    try {
      const uri = await client.open(file);
      const hover = await client.hover(uri);
      const value = (hover?.contents as { value: string }).value;

      // The markdown itself: no link into a command other than Lore's.
      const targets = [...value.matchAll(/\]\((command:[^?)]*)/g)].map((m) => m[1].slice('command:'.length));
      assert.ok(targets.length >= 6);
      for (const target of targets) assert.ok(HOVER_ENABLED_COMMANDS.includes(target), `link to ${target}`);
      assert.ok(
        !value.includes('<img') && !value.includes('<script') && !value.includes('<a ') && !value.includes('<command'),
        'no raw HTML',
      );
      assert.doesNotMatch(value, /(^|[^\\])!\[/, 'no image syntax');
      assert.doesNotMatch(value, /(^|[^\\])`/, 'no code span');
      // Outside Lore's own link destinations (whose JSON args are percent-encoded), no autolinks.
      const prose = value.replace(/\]\(command:lore\.[^)]*\)/g, ']()');
      assert.ok(!prose.includes('https://') && !prose.includes('www.evil'), 'no autolinks');

      // Rendered as VS Code renders hovers (marked): the only anchors and no other elements.
      const html = marked.parse(value, { async: false }) as string;
      const hrefs = [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]);
      assert.ok(hrefs.length >= 6);
      for (const href of hrefs) assert.match(href, /^command:lore\.(openNoteFile|editNotes|deleteNote|openProvenance|markNotesValid)\?/);
      const tags = new Set([...html.matchAll(/<([a-z]+)[\s>]/g)].map((m) => m[1]));
      assert.deepEqual(
        [...tags].filter((t) => !['p', 'ul', 'li', 'a', 'em', 'strong'].includes(t)),
        [],
        `unexpected elements in ${html}`,
      );
      assert.match(html, /Click \[here\]\(command:workbench/, 'the text is still shown, as text');
      assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);

      // Code lens titles render $(icon) syntax: a source cannot inject icons there either.
      const titles = await client.lensTitles(uri);
      assert.ok(titles.includes('from \\$(alert), 2026-11-20'), titles.join(' | '));
      // Every source of a merged line too: escaped in the hover, no icons in its lens.
      assert.match(value, /\[Conversation y\\\)\\\(command\\:workbench\\\.action\\\.quit\]\(command:lore\.openProvenance\?/);
      assert.ok(titles.includes('from \\$(bell), 2026-11-22'), titles.join(' | '));
    } finally {
      await client.stop();
    }
  });

  it('escapeMarkdown turns every markup character into text', () => {
    assert.equal(escapeMarkdown('a_b*c'), 'a\\_b\\*c');
    assert.equal(escapeMarkdown('<b>&amp;'), '&lt;b&gt;&amp;amp\\;');
    assert.equal(escapeMarkdown('line\nbreak'), 'line break');
    const html = marked.parse(escapeMarkdown('[x](command:evil) ![i](y) `c` <i>h</i> # h'), { async: false }) as string;
    assert.equal(html.trim(), '<p>[x](command:evil) ![i](y) `c` &lt;i&gt;h&lt;/i&gt; # h</p>');
  });
});
