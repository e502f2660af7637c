/**
 * LSP features inside the store's own markdown: a document link on every `[from: ID, date]`
 * (target `command:lore.openProvenance?[args]`, which VS Code runs when the user follows an
 * editor link) and on the id in `[superseded by ID, date]` (to the newer item), a warning on
 * every broken marker, and quick fixes for them.
 */
import {
  CodeAction,
  CodeActionKind,
  DiagnosticSeverity,
  Range,
  TextEdit,
  type CodeActionParams,
  type Diagnostic,
  type DocumentLink,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parseProvenance } from '../core/model/provenance';
import { readSupersession } from '../core/model/supersession';
import { LoreCommands, commandUri, type OpenProvenanceArgs } from '../shared/protocol';
import { analyzeProvenance, contentLines, type StoreDocumentKind } from './provenanceLines';

/** The `source` of Lore's diagnostics; code actions only answer for these. */
const DIAGNOSTIC_SOURCE = 'lore';

/**
 * Links on well-formed provenance markers: the whole marker for a line with one source, and one
 * link per `ID, date` for a line that several conversations taught (merged duplicates).
 */
export function provenanceLinks(text: string, absolute: string): DocumentLink[] {
  const links: DocumentLink[] = [];
  for (const { line, text: content } of contentLines(text)) {
    const supersededAt = content.indexOf('[superseded by');
    const marker = supersededAt >= 0 ? readSupersession(content) : undefined;
    if (marker) {
      // The newer item's id leads to its line.
      const start = content.toLowerCase().indexOf(marker.by, supersededAt);
      links.push({
        range: Range.create(line, start, line, start + marker.by.length),
        target: commandUri(LoreCommands.revealItemById, { id: marker.by }),
        tooltip: `Open item ${marker.by}, which superseded this one`,
      });
    }
    if (!content.includes('[from:')) continue;
    const parsed = parseProvenance(content);
    if (!parsed?.validDate) continue;
    const many = parsed.sources.length > 1;
    for (const source of parsed.sources) {
      const args: OpenProvenanceArgs = { source: source.source, date: source.date, noteFile: absolute, line };
      links.push({
        range: many ? Range.create(line, source.start, line, source.end) : Range.create(line, parsed.start, line, parsed.end),
        target: commandUri(LoreCommands.openProvenance, args),
        tooltip: `Open conversation ${source.source} (${source.date})`,
      });
    }
  }
  return links;
}

/**
 * Warnings for broken markers. The digest is regenerated from the category files, so it gets
 * links but no diagnostics (a fix there would be overwritten).
 */
export function provenanceDiagnostics(text: string, kind: StoreDocumentKind): Diagnostic[] {
  if (kind === 'digest') return [];
  const diagnostics: Diagnostic[] = [];
  for (const { line, text: content } of contentLines(text)) {
    if (!content.includes('[from:')) continue;
    const problem = analyzeProvenance(content);
    if (!problem) continue;
    diagnostics.push({
      range: Range.create(line, problem.start, line, problem.end),
      severity: DiagnosticSeverity.Warning,
      source: DIAGNOSTIC_SOURCE,
      code: problem.code,
      message: problem.message,
    });
  }
  return diagnostics;
}

/**
 * Quick fixes for Lore's diagnostics in range. The line is analysed again from the current
 * text rather than trusting the diagnostic, which may be a keystroke old.
 */
export function provenanceCodeActions(document: TextDocument, params: CodeActionParams): CodeAction[] {
  if (params.context.only && !params.context.only.some((k) => CodeActionKind.QuickFix.startsWith(k))) return [];
  const actions: CodeAction[] = [];
  const lines = new Set<number>();
  for (const d of params.context.diagnostics) if (d.source === DIAGNOSTIC_SOURCE) lines.add(d.range.start.line);
  for (const line of lines) {
    const content = document.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, '');
    const problem = analyzeProvenance(content);
    if (!problem) continue;
    const diagnostics = params.context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE && d.range.start.line === line);
    const fullLine = Range.create(line, 0, line, content.length);
    problem.fixes.forEach((fix, i) => {
      const action = CodeAction.create(
        fix.title,
        { changes: { [document.uri]: [TextEdit.replace(fullLine, fix.line)] } },
        CodeActionKind.QuickFix,
      );
      action.diagnostics = diagnostics;
      action.isPreferred = i === 0 && problem.fixes.length > 1;
      actions.push(action);
    });
  }
  return actions;
}
