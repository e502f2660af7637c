// Writes dist/README.md, the README the VSIX (and so the extension page) shows: README.md without
// its developer block (the two commands a contributor runs first), which means nothing to a user.
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const block = /<!-- developers[^>]*-->[\s\S]*?<!-- \/developers -->\n*/;
if (!block.test(readme)) throw new Error('README.md has no <!-- developers --> … <!-- /developers --> block');
fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
fs.writeFileSync(path.join(root, 'dist', 'README.md'), readme.replace(block, ''));
