/**
 * One agent tool, defined once: its name, texts, input and output schemas (zod shapes), hints,
 * and the handler that answers a call over the engine with a reply whose text and structured
 * content say the same thing (toolReply.ts). The surfaces adapt these definitions: `lore mcp`
 * registers them as MCP tools (src/mcp/agentToolsMcp.ts), and VS Code's language model tools
 * (languageModelTools.ts) take the same names' inputs and texts, from which package.json's
 * `languageModelTools` is generated. Nothing here knows which surface called.
 */
import type { z } from 'zod';
import type { SearchIndex } from '../search/searchIndex';
import type { AgentWritesMode } from '../../model/storeConfigFormat';
import type { StorePaths } from '../../store/storePaths';
import type { AskConsent } from './writeConsent';

/** A tool's reply (the shape of an MCP CallToolResult, which every surface can render). */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A call's long wait (the first index build of a large store): the surface's progress and cancellation. */
export interface ToolWait {
  /** The call's signal and a progress callback, as SearchOptions and RecallOptions take them. */
  options: { signal: AbortSignal; onProgress: (progress: { done: number; total: number }) => void };
  /** Runs the work given these options; the surface logs a cancellation. */
  during<T>(work: Promise<T>): Promise<T>;
}

/** What the surface that serves the tools provides, for as long as it serves them. */
export interface AgentToolHost {
  /** The clock for provenance dates (tests pin it). */
  now(): Date;
  /** The name the calling client gave itself (MCP clientInfo), recorded in provenance. */
  clientName(): string | undefined;
  /** The store's search index, opened once per store by the surface. */
  openIndex(paths: StorePaths): SearchIndex;
  /** Re-indexes files a write changed, so the agent's next search sees them. */
  reindex(files: string[]): Promise<void>;
  /** Where agents' writes go, over the store's config.json (undefined: `$LORE_AGENT_WRITES`, else config.json). */
  agentWrites?: AgentWritesMode;
}

/** One call: the store it runs on, and the surface's wait for long work. */
export interface ToolCall {
  paths: StorePaths;
  /** Progress and cancellation while waiting on `what` (e.g. "indexing the store"). */
  wait(what: string): ToolWait;
  /** Asks the person about a write that waits for review, where the surface can (writeConsent.ts). */
  askConsent?: AskConsent;
}

/** The hints a client may show or act on (MCP tool annotations). */
export interface ToolHints {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface AgentTool<S extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  inputSchema: S;
  /** Absent: the reply's structured content, if any, is not declared (the tool list stays short). */
  outputSchema?: z.ZodRawShape;
  annotations: ToolHints;
  /**
   * Fields the input schema does not list reach the handler, which checks them itself (the
   * `tasks` tool: each action's less common fields are named in its description, not listed).
   */
  moreFields?: boolean;
  /** The ids of items a successful reply hands out are logged as used by an agent (lifecycle/decay.ts). */
  logsUses?: boolean;
  handler(args: z.infer<z.ZodObject<S>>, call: ToolCall): Promise<ToolResult>;
}

/** A definition, its handler's arguments typed by its input shape. */
export function agentTool<S extends z.ZodRawShape>(
  name: string,
  config: Omit<AgentTool<S>, 'name' | 'handler'>,
  handler: AgentTool<S>['handler'],
): AgentTool {
  return { name, ...config, handler } as unknown as AgentTool;
}
