/** `lore init`: creates the store layout, category files and the editable prompts. */
import { defaultPromptsDir } from '../../core/harvest/prompts';
import { initStore } from '../../core/store/initStore';
import { COMMON_OPTIONS, EXIT_OK, parseCommand, type Output } from '../cliSupport';

export const INIT_HELP = `lore init [--root DIR | --global]
Creates the knowledge store (default ./.lore): category files, files/, inbox/, prompts/ and a
.gitignore for derived and private parts. Existing files are left untouched.`;

export async function initCommand(argv: string[], io: Output): Promise<number> {
  const parsed = parseCommand(argv, COMMON_OPTIONS, INIT_HELP, io, { positionals: false });
  if (!parsed) return EXIT_OK;
  const { values, paths } = parsed;
  const created = initStore(paths, defaultPromptsDir());
  if (values.json) io.out(JSON.stringify({ store: paths.root, created }, null, 2));
  else io.out(created.length ? `initialized ${paths.root} (${created.length} new files and folders)` : `${paths.root} already initialized`);
  return EXIT_OK;
}
