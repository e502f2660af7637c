// Renders media/icon.svg to media/icon.png (128×128, transparent corners), the extension's
// Marketplace icon: vsce rejects SVG icons. It uses the Chromium and playwright-core the
// integration tests already use, so nothing is downloaded. Run it after editing the SVG and
// commit both files: `sh scripts/withNode24.sh node scripts/icon.mjs`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIZE = 128;
const svg = fs.readFileSync(path.join(ROOT, 'media', 'icon.svg'), 'utf8');
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: process.env.LORE_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  await page.setContent(
    `<!doctype html><html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg style="display:block;width:${SIZE}px;height:${SIZE}px" `)}</body></html>`,
  );
  const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
  fs.writeFileSync(path.join(ROOT, 'media', 'icon.png'), png);
  console.log(`media/icon.png: ${SIZE}×${SIZE}, ${png.length} bytes`);
} finally {
  await browser.close();
}
