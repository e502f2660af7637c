/**
 * File names Lore makes from another name (a prefix for uniqueness, a suffix against a
 * collision) stay within what file systems allow: 255 bytes per name on Linux, macOS and Windows
 * (ext4 and APFS count UTF-8 bytes). An inbox file named with 237–255 bytes could otherwise never
 * be reclaimed: its copy in `.undo/` got a 19-byte prefix, every rename failed with ENAMETOOLONG
 * and every `harvest --apply` exited 1.
 */
import * as path from 'node:path';

/** The longest file name (one path component) in bytes. */
export const MAX_NAME_BYTES = 255;

/**
 * `name` cut to `maxBytes` UTF-8 bytes: the end of its stem goes, its extension (up to 16 bytes)
 * stays, and no character is cut in half. Names that fit are returned as they are.
 */
export function boundedFileName(name: string, maxBytes = MAX_NAME_BYTES): string {
  if (Buffer.byteLength(name, 'utf8') <= maxBytes) return name;
  const extension = path.extname(name);
  const ext = Buffer.byteLength(extension, 'utf8') <= 16 ? extension : '';
  let stem = '';
  let used = Buffer.byteLength(ext, 'utf8');
  for (const char of name.slice(0, name.length - ext.length)) {
    const size = Buffer.byteLength(char, 'utf8');
    if (used + size > maxBytes) break;
    stem += char;
    used += size;
  }
  return stem + ext;
}
