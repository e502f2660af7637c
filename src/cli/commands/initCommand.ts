/** `lore init`: creates the store layout, category files and the editable prompts. */
import { parseArgs } from 'node:util';
import { defaultPromptsDir } from '../../core/harvest/prompts';
import { initStore } from '../../core/store/initStore';
import { COMMON_OPTIONS, EXIT_OK, resolveStore, type Output } from '../cliSupport';

export const INIT_HELP = `lore init [--root DIR]
Creates the knowledge store (default ./.lore): category files, files/, inbox/, prompts/ and a
.gitignore for derived and private parts. Existing files are left untouched.`;

export async function initCommand(argv: string[], io: Output): Promise<number> {
  const { values } = parseArgs({ args: argv, options: COMMON_OPTIONS, strict: true });
  if (values.help) {
    io.out(INIT_HELP);
    return EXIT_OK;
  }
  const paths = resolveStore(values.root, values.workspace, io);
  const created = initStore(paths, defaultPromptsDir());
  if (values.json) io.out(JSON.stringify({ store: paths.root, created }, null, 2));
  else io.out(created.length ? `initialized ${paths.root} (${created.length} new files and folders)` : `${paths.root} already initialized`);
  return EXIT_OK;
}
