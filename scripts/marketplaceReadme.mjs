// Writes dist/README.md, the README the VSIX carries and so the extension page VS Code shows: the
// user part of README.md, one screen's worth (pitch, screenshots, first steps, what is sent where).
//
// What that page can show is decided by VS Code's extension editor (extensionEditor.ts): it renders
// the README in a webview whose sanitizer keeps only http: and https: addresses in `src` and `href`
// (relative paths and data: are removed) and whose Content-Security-Policy is `img-src https: data:`.
// So a relative image or link in the README of an installed VSIX is always dead there, whether or
// not the file is in the VSIX, and an image shows only from an https address. Hence:
// - the blocks marked `<!-- developers … -->` and `<!-- repository … -->` are left out (the two
//   commands, developing, performance; the links to docs/, which the page cannot follow);
// - the `<!-- screenshots … -->` block is kept only when an https address that serves this
//   repository's files is given (--images-base URL, or LORE_IMAGES_BASE_URL), its images pointed
//   there; without one it is left out, rather than shown as broken images;
// - any other relative link or image left on the page is an error, named.
//
//   node scripts/marketplaceReadme.mjs [--readme FILE] [--out FILE] [--images-base https://…/]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `<!-- NAME … -->` … `<!-- /NAME -->`, with the blank lines after it. */
const block = (name) => new RegExp(`<!-- ${name}\\b[^>]*-->[\\s\\S]*?<!-- /${name} -->\\n*`, 'g');

/** Relative targets of markdown links and images (`[text](target)`), fenced code aside. */
export function relativeTargets(markdown) {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)]
    .map((m) => ({ image: m[0].startsWith('!'), target: m[1] }))
    .filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'));
}

/**
 * The extension page made from the README's text. `imagesBase`: an https address under which the
 * repository's files are served (the screenshots' relative paths are resolved against it).
 */
export function extensionPage(readme, { imagesBase, root = ROOT } = {}) {
  for (const name of ['developers', 'screenshots']) {
    if (!block(name).test(readme)) throw new Error(`README.md has no <!-- ${name} --> … <!-- /${name} --> block`);
  }
  let page = readme.replace(block('developers'), '').replace(block('repository'), '');
  if (imagesBase) {
    if (!/^https:\/\/[^/]/.test(imagesBase))
      throw new Error(`--images-base must be an https address (VS Code's extension page loads no other images): ${imagesBase}`);
    const base = imagesBase.endsWith('/') ? imagesBase : `${imagesBase}/`;
    page = page.replace(block('screenshots'), (shots) =>
      shots.replace(/<!--[^>]*-->\n?/g, '').replace(/(!\[[^\]]*\]\()([^)\s]+)/g, (whole, open, target) => {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return whole;
        if (!fs.existsSync(path.join(root, target))) throw new Error(`README.md shows ${target}, which does not exist`);
        return `${open}${new URL(target, base).href}`;
      }),
    );
  } else {
    page = page.replace(block('screenshots'), '');
  }
  const dead = relativeTargets(page);
  if (dead.length) {
    throw new Error(
      `the extension page would link to ${dead.map((d) => d.target).join(', ')}: VS Code's extension page follows no relative link ` +
        'and shows no relative image; move it into a <!-- repository --> or <!-- developers --> block of README.md',
    );
  }
  return page.replace(/\n{3,}/g, '\n\n').replace(/\n+$/, '\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      readme: { type: 'string', default: path.join(ROOT, 'README.md') },
      out: { type: 'string', default: path.join(ROOT, 'dist', 'README.md') },
      'images-base': { type: 'string', default: process.env.LORE_IMAGES_BASE_URL || undefined },
    },
  });
  try {
    const page = extensionPage(fs.readFileSync(values.readme, 'utf8'), { imagesBase: values['images-base'] });
    fs.mkdirSync(path.dirname(values.out), { recursive: true });
    fs.writeFileSync(values.out, page);
  } catch (err) {
    console.error(`lore: ${err.message}`);
    process.exit(1);
  }
}
