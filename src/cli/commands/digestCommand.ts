/** `lore digest`: regenerates digest.md from the category files and prints it. */
import { regenerateDigest } from '../../core/store/digest';
import { storeConfigForWrite } from '../../core/store/storeConfig';
import { command, type Parsed } from '../command';
import { EXIT_OK, type Output } from '../cliSupport';

export const digestCommand = command({
  name: 'digest',
  usage: ['[--root DIR] [--json]'],
  description: `Regenerates digest.md (4 KB cap; sections Open tasks, Open questions, Decisions, Facts,
Playbooks, newest first) and prints it. With no items to show, or when config.json sets
"digestEnabled": false, the digest file is removed. This explicit regenerate (like a harvest)
brings back a deleted digest.md; edits of the category files only refresh one that exists
("delete to turn off").`,
  options: {},
  takes: { positionals: false },
  run: digest,
});

async function digest(parsed: Parsed, io: Output): Promise<number> {
  const { values, paths } = parsed;
  const { config, warning } = storeConfigForWrite(paths.config); // Whether there is a digest at all is the file's to say.
  if (warning) io.err(`warning: ${warning}`);
  const result = regenerateDigest(paths, { enabled: config.digestEnabled });
  if (values.json) {
    io.out(
      JSON.stringify(
        { path: paths.digest, exists: result.text !== undefined, bytes: result.bytes, changed: result.changed, text: result.text ?? null },
        null,
        2,
      ),
    );
  } else if (result.text !== undefined) {
    io.out(result.text);
    io.err(`digest: ${paths.digest} (${result.bytes} bytes${result.changed ? '' : ', unchanged'})`);
  } else {
    io.err(config.digestEnabled ? 'no digest: no items to show yet, so digest.md was removed' : 'no digest: disabled in config.json');
  }
  return EXIT_OK;
}
