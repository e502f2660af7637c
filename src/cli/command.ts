/**
 * A `lore` command, declared once: its name, usage lines (with what each does), prose, options
 * (type, value name, help) and handler. The parsing follows from the options (strict: an unknown
 * option is a usage error), `lore NAME --help` is rendered from the declaration, and so is
 * `lore --help` from all of them (main.ts). A command that reads its arguments itself (`lore hook`
 * must act on options it does not know) is a selfParsedCommand and gets them as they came.
 */
import type { ParseArgsOptionsConfig } from 'node:util';
import { COMMON_OPTIONS, EXIT_OK, parseCommand, type CommandTakes, type Output, type ParsedCommand } from './cliSupport';

/** One option: how it parses, and its line in the command's help (none: the usage names it). */
export interface OptionDeclaration {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** The value's name in the help table (`--limit N`). */
  value?: string;
  /** What it does; more lines continue under the first. */
  help?: string;
}

export type OptionDeclarations = Record<string, OptionDeclaration>;

/** What a command's handler gets: its options' values (and the common ones), positionals, the store. */
export type Parsed<O extends OptionDeclarations = Record<never, never>> = ParsedCommand<typeof COMMON_OPTIONS & O>;

/** A usage line (after `lore NAME`), with what it does when the command has several ways. */
export type UsageLine = string | { usage: string; does: string };

interface DeclarationBase {
  name: string;
  usage: UsageLine[];
  /** Help rows for positional arguments, before the options' (`FILE...`: what the files are). */
  args?: Record<string, string>;
  /** Prose after the usage (what the command does, where it reads and writes). */
  description?: string;
  /** Prose after the option table (exit status, what else to know). */
  epilogue?: string;
  /** In `lore --help`, only the first usage line (the command lists its ways in its own help). */
  briefInIndex?: boolean;
  /** Plumbing another program runs (git's merge driver): left out of `lore --help`, with its own help. */
  hidden?: boolean;
}

/** A command whose options are parsed from its declaration. */
export interface ParsedDeclaration<O extends OptionDeclarations> extends DeclarationBase {
  options: O;
  takes?: CommandTakes;
  run(parsed: NoInfer<Parsed<O>>, io: Output): Promise<number>;
}

/** A command that reads its arguments itself; its options are declared for the help only. */
export interface SelfParsedDeclaration extends DeclarationBase {
  options: OptionDeclarations;
  run(argv: string[], io: Output, help: string): Promise<number>;
}

/** A declared command, ready for main: its name, its help, and what runs it. */
export interface Command {
  name: string;
  usage: UsageLine[];
  briefInIndex: boolean;
  hidden: boolean;
  help: string;
  run(argv: string[], io: Output): Promise<number>;
}

/** Declares a command whose options parse from the declaration. */
export function command<const O extends OptionDeclarations>(declaration: ParsedDeclaration<O>): Command {
  const help = renderHelp(declaration);
  const config = { ...COMMON_OPTIONS, ...parseConfig(declaration.options) } as typeof COMMON_OPTIONS & O;
  return {
    name: declaration.name,
    usage: declaration.usage,
    briefInIndex: declaration.briefInIndex === true,
    hidden: declaration.hidden === true,
    help,
    run: async (argv, io) => {
      const parsed = parseCommand(argv, config, help, io, declaration.takes);
      if (!parsed) return EXIT_OK;
      // A command that writes the store first brings it in step after a merge (main.ts sets this).
      await io.beforeWrite?.(parsed.paths);
      return declaration.run(parsed, io);
    },
  };
}

/** Declares a command that parses its arguments itself (and prints `help` when asked). */
export function selfParsedCommand(declaration: SelfParsedDeclaration): Command {
  const help = renderHelp(declaration);
  return {
    name: declaration.name,
    usage: declaration.usage,
    briefInIndex: declaration.briefInIndex === true,
    hidden: declaration.hidden === true,
    help,
    run: (argv, io) => declaration.run(argv, io, help),
  };
}

/** The options as node:util parseArgs takes them. */
export function parseConfig(options: OptionDeclarations): ParseArgsOptionsConfig {
  return Object.fromEntries(
    Object.entries(options).map(([name, o]) => [
      name,
      { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) },
    ]),
  );
}

/** Where what a usage line does starts, in both helps. */
const DOES_COLUMN = 41;
/** Usage lines longer than this wrap before an option, under the first option. */
const USAGE_WIDTH = 120;

/** `lore NAME …` lines of a usage, wrapped, with what it does beside it (continued under it). */
export function usageLines(name: string, line: UsageLine): string[] {
  const { usage, does } = typeof line === 'string' ? { usage: line, does: undefined } : line;
  const head = `lore ${name} `;
  const lines = wrapUsage(head + usage, head.length);
  if (does === undefined) return lines;
  const [first, ...more] = does.split('\n');
  const last = lines.length - 1;
  // A long usage keeps a short text beside it; a text of several lines starts under it.
  if (lines[last].length >= DOES_COLUMN && more.length) return [...lines, ...[first, ...more].map((l) => ' '.repeat(DOES_COLUMN) + l)];
  const gap = lines[last].length < DOES_COLUMN ? DOES_COLUMN - lines[last].length : 3;
  lines[last] += ' '.repeat(gap) + first;
  const indent = lines[last].length - first.length;
  return [...lines, ...more.map((l) => ' '.repeat(indent) + l)];
}

/** Wraps a long usage before ` [` (an option group), indenting the rest under the arguments. */
function wrapUsage(text: string, indent: number): string[] {
  const lines: string[] = [];
  let rest = text;
  while (rest.length > USAGE_WIDTH) {
    const cut = rest.lastIndexOf(' [', USAGE_WIDTH);
    if (cut <= indent) break;
    lines.push(rest.slice(0, cut));
    rest = ' '.repeat(indent) + rest.slice(cut + 1);
  }
  return [...lines, rest];
}

/** Flags wider than this do not set the option table's column. */
const MAX_FLAG_COLUMN = 20;

/** The option table: flags and values in one column, help beside them, continuation lines under it. */
export function optionTable(options: OptionDeclarations, args: Record<string, string> = {}): string[] {
  const rows = [
    ...Object.entries(args).map(([name, help]) => ({ flag: `  ${name}`, help: help.split('\n') })),
    ...Object.entries(options)
      .filter(([, o]) => o.help !== undefined)
      .map(([name, o]) => ({ flag: `  --${name}${o.value ? ` ${o.value}` : ''}`, help: o.help!.split('\n') })),
  ];
  // One very long flag does not push every help text right: it keeps two spaces before its own.
  const width = Math.max(0, ...rows.map((r) => r.flag.length).filter((n) => n <= MAX_FLAG_COLUMN)) + 2;
  return rows.flatMap(({ flag, help: [first, ...more] }) => [
    (flag.length <= MAX_FLAG_COLUMN ? flag.padEnd(width) : `${flag}  `) + first,
    ...more.map((l) => ' '.repeat(width) + l),
  ]);
}

/** `lore NAME --help`. */
export function renderHelp(declaration: DeclarationBase & { options: OptionDeclarations }): string {
  return [
    ...declaration.usage.flatMap((line) => usageLines(declaration.name, line)),
    ...(declaration.description ? [declaration.description] : []),
    ...optionTable(declaration.options, declaration.args),
    ...(declaration.epilogue ? [declaration.epilogue] : []),
  ].join('\n');
}

/** The lines `lore --help` gives a command. */
export function indexLines(command: Command): string[] {
  if (command.hidden) return [];
  return (command.briefInIndex ? command.usage.slice(0, 1) : command.usage).flatMap((line) => usageLines(command.name, line));
}
