/**
 * File-path globs of topic triggers (`*.py`, `src/**\/*.ts`, `docs/?.md`), compiled to a regular
 * expression by hand: `**` crosses folders, `*` and `?` stay within one, `{a,b}` is an
 * alternative, everything else is literal. A glob without a slash matches the file's base name
 * anywhere (as in .gitignore), one with a slash the whole workspace-relative path. The compiled
 * expression has no nested quantifiers, so it cannot backtrack badly whatever the glob.
 */

/** Compiles a glob; paths are matched with forward slashes. */
export function globToRegExp(pattern: string): RegExp {
  const anchored = pattern.includes('/');
  const glob = pattern.replace(/^\.?\/+/, '');
  let body = '';
  let inBraces = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` is zero or more folders; a trailing `**` anything.
        if (glob[i + 2] === '/') {
          body += '(?:[^/]*/)*';
          i += 2;
        } else {
          body += '.*';
          i += 1;
        }
      } else body += '[^/]*';
    } else if (c === '?') body += '[^/]';
    else if (c === '{' && !inBraces) {
      inBraces = true;
      body += '(?:';
    } else if (c === '}' && inBraces) {
      inBraces = false;
      body += ')';
    } else if (c === ',' && inBraces) body += '|';
    else body += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  if (inBraces) body += ')';
  // Each `(?:[^/]*/)` ends at a slash its class cannot match, so the repetition is unambiguous.
  return new RegExp(`${anchored ? '^' : '(?:^|/)'}${body}$`, 'i');
}
