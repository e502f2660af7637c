/** `lore digest`: regenerates digest.md from the category files and prints it. */
import { parseArgs } from 'node:util';
import { regenerateDigest } from '../../core/store/digest';
import { loadStoreConfig } from '../../core/store/storeConfig';
import { COMMON_OPTIONS, EXIT_OK, type Output, resolveStore } from '../cliSupport';

export const DIGEST_HELP = `lore digest [--root DIR] [--json]
Regenerates digest.md (4 KB cap; sections Open tasks, Open questions, Decisions, Facts,
Playbooks, newest first) and prints it. With nothing to say, or when config.json sets
"digestEnabled": false, the digest file is removed ("delete to turn off").`;

export async function digestCommand(argv: string[], io: Output): Promise<number> {
  const { values } = parseArgs({ args: argv, options: COMMON_OPTIONS, strict: true });
  if (values.help) {
    io.out(DIGEST_HELP);
    return EXIT_OK;
  }
  const paths = resolveStore(values.root, values.workspace, io);
  const { config, warning } = loadStoreConfig(paths.config);
  if (warning) io.err(`warning: ${warning}`);
  const result = regenerateDigest(paths, { enabled: config.digestEnabled });
  if (values.json) {
    io.out(JSON.stringify({ path: paths.digest, exists: result.text !== undefined, bytes: result.bytes, changed: result.changed, text: result.text ?? null }, null, 2));
  } else if (result.text !== undefined) {
    io.out(result.text);
    io.err(`digest: ${paths.digest} (${result.bytes} bytes${result.changed ? '' : ', unchanged'})`);
  } else {
    io.err(config.digestEnabled ? `no digest: the category files have no items (${paths.digest} removed)` : 'no digest: disabled in config.json');
  }
  return EXIT_OK;
}
