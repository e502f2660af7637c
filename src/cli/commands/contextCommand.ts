/** `lore context`: prints the context an agent would get (stable layers first, then the turn). */
import * as path from 'node:path';
import { DEFAULT_ROLE_INSTRUCTIONS, buildContext } from '../../core/context/buildContext';
import { loadContextInputs } from '../../core/context/loadContextInputs';
import { COMMON_OPTIONS, EXIT_OK, printable, parseCommand, resolveArg, cwdOf, type Output } from '../cliSupport';

export const CONTEXT_HELP = `lore context [--root DIR] [--files F...] [--message TEXT] [--json]
Prints the compiled context: role instructions, the knowledge digest ({knowledge} block, only
while digest.md exists), the notes of the files in scope, then the active files and the message.
Everything up to the notes is the stable prefix that provider prompt caches reuse across turns.
--files may be repeated, and further arguments are files too. --json prints {text,
stablePrefixLength (UTF-16 code units), stablePrefixBytes (UTF-8 bytes), boundaries}.`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  files: { type: 'string', multiple: true },
  message: { type: 'string' },
} as const;

export async function contextCommand(argv: string[], io: Output): Promise<number> {
  const parsed = parseCommand(argv, OPTIONS, CONTEXT_HELP, io);
  if (!parsed) return EXIT_OK;
  const { values, positionals, paths } = parsed;
  // Paths are typed relative to where the user stands, not to the workspace.
  const files = [...(values.files ?? []), ...positionals].map((f) => resolveArg(io, f));
  const loaded = loadContextInputs(paths, { files, message: values.message });
  for (const missing of loaded.missingFiles) io.err(`warning: no such file: ${printable(path.relative(cwdOf(io), missing) || missing)}`);
  if (loaded.digest === undefined) io.err(`note: no digest at ${paths.digest}; the context has no {knowledge} block`);
  const built = buildContext({
    role: DEFAULT_ROLE_INSTRUCTIONS,
    digest: loaded.digest,
    fileNotes: loaded.fileNotes,
    activeFiles: loaded.activeFiles,
    message: loaded.message,
  });
  if (values.json) {
    io.out(
      JSON.stringify(
        {
          text: built.text,
          stablePrefixLength: built.stablePrefixLength,
          stablePrefixBytes: built.stablePrefixBytes,
          units: { stablePrefixLength: 'utf16-code-units', stablePrefixBytes: 'utf8-bytes', 'boundaries.start/end': 'utf16-code-units', 'boundaries.startByte/endByte': 'utf8-bytes' },
          boundaries: built.boundaries,
        },
        null,
        2,
      ),
    );
    return EXIT_OK;
  }
  // The text already ends with a newline; io.out would not add a second one.
  io.out(built.text);
  io.err(`stable prefix: ${built.stablePrefixBytes} of ${Buffer.byteLength(built.text, 'utf8')} bytes (${built.boundaries.map((b) => b.layer).join(', ') || 'empty'})`);
  return EXIT_OK;
}
