/**
 * A minimal stand-in for the `vscode` module, enough to require an extension bundle and call its
 * `activate` in plain Node (bench/activationProbe.ts). What activation only registers (commands,
 * views, tools, status-bar items) is a universal stub: callable, constructible, every property
 * another stub, `dispose()` a no-op. What the extension reads and computes with is real: the
 * settings return their defaults, the workspace folder is a real path, events and URIs work.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

type Listener<T> = (value: T) => unknown;

/** A value that can be called, constructed and dereferenced to any depth, as a registration API. */
function stub(): unknown {
  const target = function () {
    return undefined;
  };
  return new Proxy(target, {
    get: (_t, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => '' : stub()),
    set: () => true,
    apply: () => stub(),
    construct: () => stub() as object,
  });
}

class EventEmitter<T> {
  private listeners: Array<Listener<T>> = [];
  readonly event = (listener: Listener<T>) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(value: T): void {
    for (const l of [...this.listeners]) l(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

class Uri {
  private constructor(
    readonly scheme: string,
    readonly fsPath: string,
  ) {}
  static file(p: string): Uri {
    return new Uri('file', path.resolve(p));
  }
  static parse(s: string): Uri {
    return s.startsWith('file://') ? Uri.file(decodeURIComponent(s.slice('file://'.length))) : new Uri(s.split(':')[0], s);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return Uri.file(path.join(base.fsPath, ...parts));
  }
  get path(): string {
    return this.fsPath;
  }
  toString(): string {
    return this.scheme === 'file' ? `file://${this.fsPath}` : this.fsPath;
  }
}

const event = () => new EventEmitter<unknown>().event;

/**
 * The names the real module exports (from @types/vscode): a bundle copies the module's own keys
 * when it imports it (esbuild's __toESM), so every name must exist up front.
 */
function exportedNames(): string[] {
  const dts = fs.readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
  return [...new Set([...dts.matchAll(/^\texport (?:class|enum|namespace|function|const|let) (\w+)/gm)].map((m) => m[1]))];
}

/** The fake module for a workspace folder. */
export function createFakeVscode(workspace: string): Record<string, unknown> {
  const folder = { uri: Uri.file(workspace), name: path.basename(workspace), index: 0 };
  const configuration = {
    get: (_key: string, fallback?: unknown) => fallback,
    has: () => false,
    inspect: () => undefined,
    update: async () => undefined,
  };
  const universal = stub() as Record<string, unknown>;
  const overrides: Record<string, unknown> = {
    version: '1.139.0',
    EventEmitter,
    Uri,
    workspace: new Proxy(
      {
        workspaceFolders: [folder],
        getConfiguration: () => configuration,
        onDidChangeConfiguration: event(),
        onDidChangeWorkspaceFolders: event(),
        onDidDeleteFiles: event(),
        onDidRenameFiles: event(),
        createFileSystemWatcher: () => ({ onDidChange: event(), onDidCreate: event(), onDidDelete: event(), dispose: () => undefined }),
      } as Record<string | symbol, unknown>,
      { get: (t, key) => (key in t ? t[key] : (universal as Record<string | symbol, unknown>)[key]) },
    ),
    window: new Proxy({ state: { focused: false }, onDidChangeWindowState: event() } as Record<string | symbol, unknown>, {
      get: (t, key) => (key in t ? t[key] : (universal as Record<string | symbol, unknown>)[key]),
    }),
  };
  const module: Record<string, unknown> = {};
  for (const name of exportedNames()) module[name] = name in overrides ? overrides[name] : stub();
  return Object.assign(module, overrides);
}
