/**
 * Lore's MCP server (`lore mcp`), registered with VS Code so Copilot's agent mode (and any MCP
 * client inside VS Code) has the store's tools without a `.vscode/mcp.json`: a stdio definition
 * that runs the bundled CLI (dist/cli.js) with a Node the extension host already has. There is a
 * definition only while a store exists and the workspace is trusted; it follows the store when
 * it appears, vanishes or moves, and when the workspace becomes trusted.
 */
import * as vscode from 'vscode';
import { nodeRunner } from '../../core/base/nodeRunner';
import { Disposable } from '../lifecycle';
import { logger } from '../log';
import { NO_STORE_MESSAGE } from '../noStore';
import { gitCommitOption, readSettings } from '../settings';
import type { StoreService } from '../storeService';

const log = logger('mcp');

/** The id in package.json's `contributes.mcpServerDefinitionProviders`. */
export const MCP_PROVIDER_ID = 'lore.mcpServers';

/** The server's label in VS Code's MCP lists. */
export const MCP_SERVER_LABEL = 'Lore';

export class LoreMcpServerProvider extends Disposable implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  /** What the last answer was based on: a change of any part is a new set of definitions. */
  private state: string;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly store: StoreService,
  ) {
    super();
    this.state = this.currentState();
    const check = () => {
      const next = this.currentState();
      if (next === this.state) return;
      this.state = next;
      log.info(this.unavailableReason() ?? `MCP server for ${this.store.paths.root} offered to VS Code`);
      this.changed.fire();
    };
    this._register(store.onDidChange(check));
    this._register(store.onDidMove(check));
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(check));
    this._register(
      vscode.workspace.onDidChangeConfiguration(
        (e) => (e.affectsConfiguration('lore.agentWrites') || e.affectsConfiguration('lore.git.commit')) && check(),
      ),
    );
  }

  private currentState(): string {
    const paths = this.store.available ? this.store.paths : null;
    return JSON.stringify([
      vscode.workspace.isTrusted,
      this.store.exists,
      paths?.root,
      paths?.workspace,
      readSettings().agentWrites,
      readSettings().gitCommit,
    ]);
  }

  /** Why no server is offered now, or undefined when one is. */
  unavailableReason(): string | undefined {
    // An untrusted repository's store is its author's text, and the store location is a
    // restricted setting: nothing is served to agents until the person trusts the workspace.
    if (!vscode.workspace.isTrusted) return 'no MCP server in Restricted Mode: trust the workspace to let agents read its Lore store';
    if (!this.store.available) return `no MCP server: ${NO_STORE_MESSAGE}`;
    if (!this.store.exists) return `no MCP server: there is no knowledge store at ${this.store.paths.root} yet (Lore: Initialize Store)`;
    return undefined;
  }

  /** The definition VS Code would start now, or undefined (see unavailableReason). */
  definition(): vscode.McpStdioServerDefinition | undefined {
    if (this.unavailableReason()) return undefined;
    const paths = this.store.paths;
    const node = nodeRunner();
    const cli = this.context.asAbsolutePath('dist/cli.js');
    const version = String((this.context.extension.packageJSON as { version?: unknown }).version ?? '0');
    // lore.agentWrites, when set, decides over the store's config.json where agents' writes go.
    const agentWrites = readSettings().agentWrites;
    const gitCommit = gitCommitOption(readSettings().gitCommit).gitCommit;
    // Offered only in a trusted workspace: the store's config.json is the person's (core/store/storeTrust.ts).
    const env = {
      ...node.env,
      LORE_TRUSTED_STORE: paths.root,
      ...(agentWrites !== 'store' ? { LORE_AGENT_WRITES: agentWrites } : {}),
      ...(gitCommit ? { LORE_GIT_COMMIT: gitCommit } : {}),
    };
    const definition = new vscode.McpStdioServerDefinition(
      MCP_SERVER_LABEL,
      node.command,
      [cli, 'mcp', '--root', paths.root, '--workspace', paths.workspace],
      env,
      version,
    );
    definition.cwd = vscode.Uri.file(paths.workspace);
    return definition;
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const definition = this.definition();
    return definition ? [definition] : [];
  }

  /** Called just before VS Code starts the server: the store may have gone since it was listed. */
  resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): vscode.McpStdioServerDefinition | undefined {
    const reason = this.unavailableReason();
    if (reason) {
      log.warn(reason);
      return undefined;
    }
    return server;
  }
}

/** Registers the provider; returns it (the tests and the API read its definition) and its registration. */
export function registerMcpServerProvider(
  context: vscode.ExtensionContext,
  store: StoreService,
): { provider: LoreMcpServerProvider; disposables: vscode.Disposable[] } {
  const provider = new LoreMcpServerProvider(context, store);
  const reason = provider.unavailableReason();
  if (reason) log.info(reason);
  return { provider, disposables: [provider, vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider)] };
}
