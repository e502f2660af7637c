/**
 * What a subagent found, folded into the conversation that started it. A subagent's own turns
 * (Claude Code's Task / Agent tool, OpenCode's task tool) are not the person's conversation and
 * are never read as one, but its final answer is what the parent agent went on with, often the
 * finding itself. It becomes an agent turn of the parent, labelled as the subagent's, right after
 * the call, so a harvest sees it and never takes it for the user's words. Long reports are cut:
 * one report must not crowd out the conversation it belongs to.
 */
import type { Turn } from '../../model/conversation';
import { cutRedacted, redactSecrets } from '../../model/safety/redact';
import { oneLine, trimBlankLines } from './importSupport';

/** Characters of a subagent's answer kept in the parent's transcript. */
export const SUBAGENT_REPORT_MAX_CHARS = 4000;

/** The agent turn that carries a subagent's answer, or undefined when the answer is empty. */
export function subagentReportTurn(call: string | undefined, answer: string, at?: string): Turn | undefined {
  // Redacted before the cut, so a secret across it is not kept by halves.
  let text = redactSecrets(trimBlankLines(answer.replace(/\r\n?/g, '\n')).trim());
  if (text === '') return undefined;
  if (text.length > SUBAGENT_REPORT_MAX_CHARS) {
    const cut = cutRedacted(text, SUBAGENT_REPORT_MAX_CHARS);
    text = `${cut.trimEnd()}\n\n[… the rest of the report, ${text.length - cut.length} characters, is not kept]`;
  }
  const label = call ? `Subagent report (${oneLine(call, 100)}):` : 'Subagent report:';
  return { role: 'assistant', text: `${label}\n\n${text}`, ...(at ? { at } : {}) };
}
