/**
 * The machine whose agent session folders discovery looks at: its platform, home folder and
 * environment. Passed in rather than read from `process`, so the Windows and macOS location
 * tables are computed (and tested) on a Linux machine, and a test's fixture home is the only
 * home a test reads.
 */
import * as os from 'node:os';
import * as path from 'node:path';

export type HostPlatform = 'linux' | 'darwin' | 'win32';

export interface Host {
  platform: HostPlatform;
  home: string;
  env: NodeJS.ProcessEnv;
}

/**
 * This machine, seen through an environment: the home folder is the environment's (HOME, or
 * USERPROFILE on Windows) before the account's, so a CLI run in process with its own environment
 * looks where that environment says. Platforms other than macOS and Windows use the Linux (XDG) layout.
 */
export function currentHost(env: NodeJS.ProcessEnv = process.env, home?: string): Host {
  const platform = process.platform === 'darwin' || process.platform === 'win32' ? process.platform : 'linux';
  const host: Host = { platform, home: '', env };
  return { ...host, home: home ?? envValue(host, platform === 'win32' ? 'USERPROFILE' : 'HOME') ?? os.homedir() };
}

/** Path arithmetic in the host's own syntax (`C:\…` for Windows even when computed elsewhere). */
export function hostPath(host: Host): path.PlatformPath {
  return host.platform === 'win32' ? path.win32 : path.posix;
}

/** A variable that is set and not blank. */
export function envValue(host: Host, name: string): string | undefined {
  const value = host.env[name];
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/**
 * A path in a comparable form: resolved, without a trailing separator, and on Windows (whose file
 * names are case-insensitive and written with either slash) lower-cased with backslashes.
 */
export function comparablePath(host: Host, file: string): string {
  const p = hostPath(host);
  const resolved = p.resolve(file);
  const trimmed = resolved.length > p.parse(resolved).root.length ? resolved.replace(/[\\/]+$/, '') : resolved;
  return host.platform === 'win32' ? trimmed.toLowerCase() : trimmed;
}

/** Whether two paths name the same folder on the host. */
export function samePath(host: Host, a: string, b: string): boolean {
  return comparablePath(host, a) === comparablePath(host, b);
}

/** Whether `folder` is `workspace` or lies inside it, on the host (`/x/app-2` is not inside `/x/app`). */
export function isWithin(host: Host, folder: string, workspace: string): boolean {
  const p = hostPath(host);
  const rel = p.relative(comparablePath(host, workspace), comparablePath(host, folder));
  return rel === '' || (!rel.startsWith('..') && !p.isAbsolute(rel));
}

/**
 * A `file:` URI (VS Code's `workspace.json`, Continue's `workspaceDirectory`) as a host path;
 * a plain path is returned as it is, another scheme (a remote workspace) as undefined.
 * `file:///c%3A/Users/x` is `c:\Users\x` on Windows.
 */
export function fileUriToPath(host: Host, uri: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]+:/i.test(uri) || /^[a-z]:[\\/]/i.test(uri)) return uri;
  if (!uri.toLowerCase().startsWith('file://')) return undefined;
  let rest = uri.slice('file://'.length);
  const slash = rest.indexOf('/');
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  rest = slash < 0 ? '/' : rest.slice(slash);
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return undefined;
  }
  if (host.platform !== 'win32') return authority ? undefined : decoded;
  if (authority) return `\\\\${authority}${decoded.replace(/\//g, '\\')}`;
  return decoded.replace(/^\/([a-z]:)/i, '$1').replace(/\//g, '\\');
}
