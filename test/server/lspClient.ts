/**
 * A minimal LSP client for tests and benchmarks: spawns the real bundle `dist/server.js --stdio`
 * and talks JSON-RPC to it with vscode-languageserver-protocol, as the VS Code client would.
 * It records notifications, published diagnostics and code-lens refresh requests so tests can
 * wait for them. Like VS Code's file watcher behind `synchronize.fileEvents`, it watches the
 * workspace (recursively) and forwards changes as `workspace/didChangeWatchedFiles`: the server
 * watches nothing itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeActionRequest,
  CodeLensRefreshRequest,
  CodeLensRequest,
  CodeLensResolveRequest,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  DocumentLinkRequest,
  ExitNotification,
  FileChangeType,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  createProtocolConnection,
  type CodeAction,
  type CodeLens,
  type Diagnostic,
  type DocumentLink,
  type Hover,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import {
  NotesChangedNotification,
  SearchBackendNotification,
  SERVER_NODE_FLAGS,
  StoreChangedNotification,
  TeammateArrivalsNotification,
  type LoreInitializationOptions,
} from '../../src/shared/protocol';
import { REPO_ROOT } from '../helpers/paths';

export const SERVER_BUNDLE = path.join(REPO_ROOT, 'dist', 'server.js');

export function uriOf(file: string): string {
  return pathToFileURL(file).toString();
}

interface Received {
  method: string;
  params: unknown;
  at: number;
}

export class LspTestClient {
  readonly notifications: Received[] = [];
  readonly logs: string[] = [];
  readonly diagnostics = new Map<string, Diagnostic[]>();
  lensRefreshes = 0;
  private readonly versions = new Map<string, number>();
  private waiters: Array<() => void> = [];
  private watcher: fs.FSWatcher | undefined;

  private constructor(
    readonly connection: ProtocolConnection,
    readonly child: ChildProcess,
  ) {}

  /** Spawns the server and completes the initialize handshake. */
  static async start(
    options: Partial<LoreInitializationOptions>,
    extra: { lensRefresh?: boolean; env?: NodeJS.ProcessEnv; watchFiles?: boolean } = {},
  ): Promise<LspTestClient> {
    if (!fs.existsSync(SERVER_BUNDLE)) throw new Error(`${SERVER_BUNDLE} is missing: run npm run build`);
    // `env`: variables on top of this process's (a fixture HOME for discovery).
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_BUNDLE, '--stdio'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...extra.env },
    });
    const connection = createProtocolConnection(child.stdout!, child.stdin!);
    const client = new LspTestClient(connection, child);
    child.stderr!.on('data', (chunk: Buffer) => client.logs.push(chunk.toString()));
    connection.onNotification(LogMessageNotification.method, (p: { message: string }) => {
      client.logs.push(p.message);
    });
    connection.onNotification(PublishDiagnosticsNotification.method, (p: { uri: string; diagnostics: Diagnostic[] }) => {
      client.diagnostics.set(p.uri, p.diagnostics);
      client.record(PublishDiagnosticsNotification.method, p);
    });
    for (const method of [
      NotesChangedNotification.method,
      StoreChangedNotification.method,
      SearchBackendNotification.method,
      TeammateArrivalsNotification.method,
    ]) {
      connection.onNotification(method, (p: unknown) => client.record(method, p));
    }
    connection.onRequest(CodeLensRefreshRequest.method, () => {
      client.lensRefreshes++;
      client.record(CodeLensRefreshRequest.method, null);
      return null;
    });
    connection.listen();
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: options.workspaceRoot ? uriOf(options.workspaceRoot) : null,
      capabilities: { workspace: { codeLens: { refreshSupport: extra.lensRefresh ?? true } } },
      initializationOptions: options,
      workspaceFolders: null,
    });
    await connection.sendNotification(InitializedNotification.type, {});
    const watched = options.workspaceRoot ?? (options.storeRoot && path.dirname(options.storeRoot));
    // watchFiles false: for a client that changes no file (a bench); Node's recursive watch on
    // Linux takes one inotify watch per file, and a workspace of 100,000 files exceeds the limit.
    if (watched && extra.watchFiles !== false) client.watch(watched);
    // Every request waits for the index; an empty one tells us the server is ready and watching.
    await connection.sendRequest('lore/fileDecorations', { paths: [] });
    return client;
  }

  /** Forwards file events under `dir`, as VS Code's watcher does for the real client. */
  private watch(dir: string): void {
    this.watcher = fs.watch(dir, { recursive: true, persistent: false }, (_event, name) => {
      if (!name) return;
      const file = path.join(dir, String(name));
      const type = fs.existsSync(file) ? FileChangeType.Changed : FileChangeType.Deleted;
      void this.connection
        .sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf(file), type }] })
        .catch(() => undefined);
    });
  }

  private record(method: string, params: unknown): void {
    this.notifications.push({ method, params, at: Date.now() });
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Waits until a message received after `since` (ms timestamp) matches. */
  async waitFor<T = unknown>(
    method: string,
    predicate: (params: T) => boolean = () => true,
    timeoutMs = 5000,
    since = 0,
  ): Promise<{ params: T; at: number }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.notifications.find((n) => n.method === method && n.at >= since && predicate(n.params as T));
      if (hit) return { params: hit.params as T, at: hit.at };
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${method} within ${timeoutMs} ms; logs:\n${this.logs.join('\n')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async open(file: string, text = fs.readFileSync(file, 'utf8'), languageId = 'plaintext'): Promise<string> {
    const uri = uriOf(file);
    this.versions.set(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
    return uri;
  }

  async change(uri: string, text: string): Promise<void> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
  }

  /** Tells the server the editor saved the document (the text is already on disk). */
  async save(uri: string): Promise<void> {
    await this.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** Code lenses with every one resolved, as VS Code does for the visible ones. */
  async lenses(uri: string): Promise<CodeLens[]> {
    const lenses = (await this.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? [];
    return Promise.all(lenses.map((lens) => this.connection.sendRequest(CodeLensResolveRequest.type, lens)));
  }

  /** Titles of the resolved lenses. */
  async lensTitles(uri: string): Promise<string[]> {
    return (await this.lenses(uri)).map((l) => l.command?.title ?? '');
  }

  hover(uri: string, line = 0, character = 0): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
  }

  async links(uri: string): Promise<DocumentLink[]> {
    return (await this.connection.sendRequest(DocumentLinkRequest.type, { textDocument: { uri } })) ?? [];
  }

  async codeActions(uri: string, diagnostics: Diagnostic[]): Promise<CodeAction[]> {
    const range = diagnostics[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const result = await this.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics } });
    return (result ?? []).filter((a): a is CodeAction => 'title' in a && !('command' in a && typeof a.command === 'string'));
  }

  /** Graceful shutdown; kills the process if it does not exit. */
  async stop(): Promise<void> {
    this.watcher?.close();
    try {
      await Promise.race([this.connection.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      // Already gone.
    }
    this.connection.dispose();
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    const timer = setTimeout(() => this.child.kill(), 2000);
    if (this.child.exitCode === null) await exited;
    clearTimeout(timer);
  }
}
