/**
 * Installing and removing Lore's agent hooks in the tools' configuration files, merged with what
 * is there: every other key and hook keeps its meaning, the file keeps its indentation, line
 * endings and BOM, a second install changes nothing, and uninstall removes exactly Lore's own
 * entries, recognized by their command (`… lore hook` or `… cli.js hook`). A file Lore cannot
 * read as the format it expects is never written: the error says what is wrong with it.
 *
 * Where: Claude Code reads `.claude/settings.json`, `.claude/settings.local.json` and
 * `~/.claude/settings.json`; VS Code reads those too and `.github/hooks/*.json`. A workspace
 * install for Claude Code goes to `settings.local.json`, which is not committed, because the
 * command holds paths of this machine.
 */
import * as path from 'node:path';
import { claudeHome } from '../discovery/toolLocations';
import { hostPath, type Host } from '../discovery/host';
import { writeFileAtomic } from '../../base/atomicWrite';
import type { HookTool } from './hookCapture';
import { HOOK_KINDS, type HookKind } from './hookEvents';
import { lazy } from '../../base/lazy';
import { mkdirNoFollow } from '../../base/storeLinks';
import { readStoreFile } from '../../base/readText';

const hookSettingsSchemaModule = lazy(() => require('./hookSettingsSchema') as typeof import('./hookSettingsSchema'));

export type HookScope = 'user' | 'workspace';

/**
 * The events each tool's file gets, by kind (hookEvents.ts). VS Code has no SessionEnd, and its
 * UserPromptSubmit takes only the common output fields, no `additionalContext`
 * (https://code.visualstudio.com/docs/agents/reference/hooks-reference): there the context comes
 * at SessionStart. VS Code also runs the Claude Code files' hooks, UserPromptSubmit included.
 * PostToolUse records the files of tool calls for the glob triggers of the next UserPromptSubmit,
 * so only the Claude Code file, whose UserPromptSubmit takes context, gets it.
 */
export const HOOK_EVENTS: Record<HookTool, Record<HookKind, readonly string[]>> = {
  claude: { capture: ['SessionEnd', 'PreCompact', 'Stop'], context: ['SessionStart', 'UserPromptSubmit', 'PostToolUse'] },
  vscode: { capture: ['PreCompact', 'Stop'], context: ['SessionStart'] },
};

/**
 * Claude Code's matcher for Lore's group of an event: PostToolUse runs only for the tools whose
 * input names files (https://code.claude.com/docs/en/hooks, "Matchers"), not for every shell
 * command or web fetch. Hooks VS Code runs from the same file get its own tool names, which
 * toolInputPaths reads too.
 */
export const HOOK_MATCHERS: Readonly<Record<string, string>> = {
  PostToolUse: 'Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep',
};

/** The events of the chosen kinds for a tool, in a fixed order. */
export function hookEventsFor(tool: HookTool, kinds: readonly HookKind[] = HOOK_KINDS): string[] {
  return HOOK_KINDS.filter((k) => kinds.includes(k)).flatMap((k) => HOOK_EVENTS[tool][k]);
}

/** Seconds the tools give the hook; `lore hook` needs milliseconds and stops waiting for input after 5 s. */
const HOOK_TIMEOUT_SECONDS = 15;

/** A configuration file Lore will not edit, with the reason. */
export class HookSettingsError extends Error {}

/** Whether a hook command is Lore's: `lore hook …`, or node running Lore's `cli.js hook …`. */
export function isLoreHookCommand(command: unknown): boolean {
  return typeof command === 'string' && /(^|[\s"'/\\])(lore|cli\.js)["']?\s+hook(\s|$)/.test(command);
}

/**
 * The command a hook runs: this machine's node and Lore's cli.js, by absolute path. Hooks run in
 * the agent's environment, whose PATH is often not the shell's (an editor started from the
 * desktop, a node version manager), so neither `lore` nor `node` can be counted on being found.
 * Installing again after Lore moved updates the command.
 */
export function loreHookCommand(node: string, cli: string, platform: NodeJS.Platform = process.platform): string {
  return `${shellQuote(node, platform)} ${shellQuote(cli, platform)} hook`;
}

function shellQuote(arg: string, platform: NodeJS.Platform): string {
  if (/^[\w@%+=:,./\\-]+$/.test(arg)) return arg;
  return platform === 'win32' ? `"${arg.replace(/"/g, '""')}"` : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The file a tool reads hooks from at a scope. */
export function hookSettingsFile(tool: HookTool, scope: HookScope, workspace: string, host: Host): string {
  const p = hostPath(host);
  if (tool === 'claude')
    return scope === 'user' ? p.join(claudeHome(host), 'settings.json') : p.join(workspace, '.claude', 'settings.local.json');
  if (scope === 'user') {
    throw new HookSettingsError(
      'VS Code reads user-level hooks from ~/.claude/settings.json: install them with --claude --user, which both Claude Code and VS Code run',
    );
  }
  return p.join(workspace, '.github', 'hooks', 'lore.json');
}

/** Every file where a tool may hold Lore's hooks at a scope (uninstall looks in all of them). */
export function hookSettingsFiles(tool: HookTool, scope: HookScope, workspace: string, host: Host): string[] {
  if (tool === 'claude' && scope === 'workspace')
    return [hookSettingsFile(tool, scope, workspace, host), hostPath(host).join(workspace, '.claude', 'settings.json')];
  if (tool === 'vscode' && scope === 'user') return [];
  return [hookSettingsFile(tool, scope, workspace, host)];
}

interface SettingsText {
  value: Record<string, unknown>;
  indent: string;
  eol: string;
  bom: string;
  finalNewline: boolean;
}

function readSettingsText(file: string, text: string | undefined, tool: HookTool): SettingsText {
  if (text === undefined || text.trim() === '') return { value: {}, indent: '  ', eol: '\n', bom: '', finalNewline: true };
  const bom = text.startsWith('\ufeff') ? '\ufeff' : '';
  let value: unknown;
  try {
    value = JSON.parse(text.slice(bom.length));
  } catch (error) {
    throw new HookSettingsError(`${file} is not valid JSON (${(error as Error).message}); fix it and run again. Lore left it as it is.`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new HookSettingsError(`${file} is not a JSON object; Lore left it as it is.`);
  const { settingsShapeProblem } = hookSettingsSchemaModule();
  const problem = settingsShapeProblem(tool, value);
  if (problem) throw new HookSettingsError(`${file}: ${problem}; Lore left it as it is.`);
  return {
    value: value as Record<string, unknown>,
    indent: /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ',
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    bom,
    finalNewline: /\n$/.test(text),
  };
}

function settingsTextOf(s: SettingsText): string {
  const body = JSON.stringify(s.value, null, s.indent).replace(/\n/g, s.eol);
  return s.bom + body + (s.finalNewline ? s.eol : '');
}

interface HookEntry {
  type: string;
  command?: string;
  [key: string]: unknown;
}
type ClaudeGroup = { matcher?: string; hooks: HookEntry[] } & Record<string, unknown>;

/**
 * Adds (or updates) Lore's hook for each event of the chosen kinds, and removes Lore's own hooks
 * from the events of the kinds not chosen (installing only capture hooks after a full install
 * leaves only capture hooks). True when anything changed.
 */
function addLoreHooks(value: Record<string, unknown>, tool: HookTool, command: string, kinds: readonly HookKind[]): boolean {
  const chosen = hookEventsFor(tool, kinds);
  const others = hookEventsFor(tool).filter((event) => !chosen.includes(event));
  let changed = removeLoreHooks(value, tool, others);
  const hooks = (value.hooks ??= {}) as Record<string, unknown[]>;
  for (const event of chosen) {
    const list = (hooks[event] ??= []);
    const entries = tool === 'claude' ? (list as ClaudeGroup[]).flatMap((group) => group.hooks) : (list as HookEntry[]);
    const lore = entries.filter((entry) => isLoreHookCommand(entry.command));
    for (const entry of lore) {
      if (entry.command !== command) {
        entry.command = command;
        changed = true;
      }
    }
    if (lore.length) continue;
    const entry: HookEntry = { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
    const matcher = HOOK_MATCHERS[event];
    list.push(tool === 'claude' ? { ...(matcher ? { matcher } : {}), hooks: [entry] } : entry);
    changed = true;
  }
  return changed;
}

/**
 * Removes Lore's hooks (and the groups and events left empty by that), from every event or only
 * from `events`. True when anything changed.
 */
function removeLoreHooks(value: Record<string, unknown>, tool: HookTool, events?: readonly string[]): boolean {
  const hooks = value.hooks as Record<string, unknown[]> | undefined;
  if (!hooks) return false;
  let changed = false;
  for (const [event, list] of Object.entries(hooks)) {
    if (events && !events.includes(event)) continue;
    let kept: unknown[];
    if (tool === 'claude') {
      kept = [];
      for (const group of list as ClaudeGroup[]) {
        const others = group.hooks.filter((entry) => !isLoreHookCommand(entry.command));
        if (others.length === group.hooks.length) kept.push(group);
        else if (others.length) kept.push({ ...group, hooks: others });
      }
    } else {
      kept = (list as HookEntry[]).filter((entry) => !isLoreHookCommand(entry.command));
    }
    if (kept.length === list.length) continue;
    changed = true;
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  return changed;
}

/** What an install or uninstall did to one file. */
export interface HookSettingsChange {
  file: string;
  changed: boolean;
}

function editSettingsFile(
  file: string,
  tool: HookTool,
  edit: (value: Record<string, unknown>) => boolean,
  create: boolean,
): HookSettingsChange {
  let text: string | undefined;
  try {
    text = readStoreFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (!create) return { file, changed: false };
  }
  const settings = readSettingsText(file, text, tool);
  if (!edit(settings.value)) return { file, changed: false };
  mkdirNoFollow(path.dirname(file));
  writeFileAtomic(file, settingsTextOf(settings));
  return { file, changed: true };
}

/** Writes Lore's hooks of the chosen kinds (default: all) into the tool's file at the scope. */
export function installHooks(
  tool: HookTool,
  scope: HookScope,
  workspace: string,
  host: Host,
  command: string,
  kinds: readonly HookKind[] = HOOK_KINDS,
): HookSettingsChange {
  const file = hookSettingsFile(tool, scope, workspace, host);
  // The format of a file follows where it is: `.github/hooks` holds VS Code's, `.claude` Claude Code's.
  return editSettingsFile(file, tool, (value) => addLoreHooks(value, tool, command, kinds), true);
}

/** Removes Lore's hooks from every file the tool reads at the scope. */
export function uninstallHooks(tool: HookTool, scope: HookScope, workspace: string, host: Host): HookSettingsChange[] {
  return hookSettingsFiles(tool, scope, workspace, host).map((file) =>
    editSettingsFile(file, tool, (value) => removeLoreHooks(value, tool), false),
  );
}
