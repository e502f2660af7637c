/**
 * The extension page VS Code shows for Lore (the VSIX's README, built by
 * scripts/marketplaceReadme.mjs): one screen for a person, nothing for developers, and nothing dead.
 * VS Code's extension page keeps only http(s) addresses in a README (relative links and images are
 * removed) and loads images only from https, so the page may hold no relative target at all, and
 * its screenshots come from an https address that serves this repository's files. The files the
 * installed extension does show itself (the icon, the walkthrough's pages and their images) must
 * be in the VSIX, as vsce lists it through .vscodeignore.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(__dirname, '..', '..', '..');

interface PageScript {
  extensionPage(readme: string, options?: { imagesBase?: string }): string;
  relativeTargets(markdown: string): Array<{ image: boolean; target: string }>;
}
interface Vsce {
  listFiles(options: { cwd: string; packageManager: string }): Promise<string[]>;
  PackageManager: { None: string };
}

/** Both are plain ESM / CommonJS without types; imported by a computed name so tsc leaves them be. */
async function load<T>(specifier: string): Promise<T> {
  return (await import(specifier)) as T;
}

const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const base = 'https://lore.example/raw/main/';

describe('the extension page (scripts/marketplaceReadme.mjs)', () => {
  let script: PageScript;
  let shipped: Set<string>;
  before(async function () {
    this.timeout(60_000);
    script = await load<PageScript>(pathToFileURL(path.join(root, 'scripts', 'marketplaceReadme.mjs')).href);
    const vsce = await load<Vsce>('@vscode/vsce');
    shipped = new Set((await vsce.listFiles({ cwd: root, packageManager: vsce.PackageManager.None })).map((f) => f.replace(/\\/g, '/')));
  });

  it('is one screen for a person: the pitch, five steps and what is sent where, nothing for developers', () => {
    const page = script.extensionPage(readme);
    assert.match(page, /^# Lore\n/);
    assert.equal([...page.matchAll(/^\d+\. /gm)].length, 5, 'five first steps');
    assert.match(page, /\*\*What is sent where\.\*\*/);
    for (const developerText of ['<!--', 'npm start', 'npm test', '## Performance', 'CONTRIBUTING', 'AGENTS.md', '## Reference', 'docs/']) {
      assert.ok(!page.includes(developerText), `the page holds no ${JSON.stringify(developerText)}`);
    }
    const words = page.split(/\s+/).filter(Boolean).length;
    assert.ok(page.split('\n').length <= 45 && words <= 500, `one screen: ${page.split('\n').length} lines, ${words} words`);
  });

  it('links to no file and shows no picture without an https address for them, rather than broken ones', () => {
    const page = script.extensionPage(readme);
    assert.deepEqual(script.relativeTargets(page), []);
    assert.ok(!/!\[/.test(page), 'no image');
  });

  it('shows two or three screenshots from the https address given, each a file of the repository that the README names', () => {
    const page = script.extensionPage(readme, { imagesBase: base });
    const images = [...page.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
    assert.ok(images.length >= 2 && images.length <= 3, `${images.length} screenshots`);
    for (const image of images) {
      assert.ok(image.startsWith(base), `${image} is under ${base}`);
      assert.ok(fs.existsSync(path.join(root, image.slice(base.length))), `${image} is a file of the repository`);
    }
    assert.deepEqual(script.relativeTargets(page), []);
  });

  it('refuses a relative link on the page, naming it, and an images address that is not https', () => {
    const linked = readme.replace('## Getting started\n', '## Getting started\n\nSee [the command line](docs/cli.md).\n');
    assert.throws(() => script.extensionPage(linked), /docs\/cli\.md/);
    assert.throws(() => script.extensionPage(readme, { imagesBase: 'http://lore.example/' }), /https/);
  });

  it('ships what the installed extension shows itself: the icon, the walkthrough pages and their images', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      icon: string;
      contributes: {
        walkthroughs: Array<{ steps: Array<{ media: { markdown?: string; svg?: string; image?: string | Record<string, string> } }> }>;
      };
    };
    const shown = [manifest.icon, 'media/lore.svg'];
    for (const { media } of manifest.contributes.walkthroughs.flatMap((w) => w.steps)) {
      const files = [media.markdown, media.svg, ...(typeof media.image === 'string' ? [media.image] : Object.values(media.image ?? {}))];
      for (const file of files.filter((f): f is string => Boolean(f))) {
        shown.push(file);
        if (file.endsWith('.md')) {
          const text = fs.readFileSync(path.join(root, file), 'utf8');
          for (const { target } of script.relativeTargets(text))
            shown.push(path.posix.join(path.posix.dirname(file), target.split('#')[0]));
        }
      }
    }
    assert.deepEqual(
      shown.filter((file) => !shipped.has(file)),
      [],
    );
  });

  it('leaves the reference and the developer pages out of the VSIX (nothing on the page links to them)', () => {
    assert.deepEqual(
      [...shipped].filter((f) => f.startsWith('docs/') || f === 'CONTRIBUTING.md'),
      [],
    );
  });
});

describe('the README and the reference pages on the repository', () => {
  it('link only to files that exist', async () => {
    const { relativeTargets } = await load<PageScript>(pathToFileURL(path.join(root, 'scripts', 'marketplaceReadme.mjs')).href);
    const pages = [
      'README.md',
      'CONTRIBUTING.md',
      'AGENTS.md',
      ...fs
        .readdirSync(path.join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const dead = pages.flatMap((page) =>
      relativeTargets(fs.readFileSync(path.join(root, page), 'utf8'))
        .map(({ target }) => target.split('#')[0])
        .filter((target) => !fs.existsSync(path.join(root, path.dirname(page), target)))
        .map((target) => `${page} → ${target}`),
    );
    assert.deepEqual(dead, []);
  });
});
