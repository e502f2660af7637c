/**
 * The `lore_remember` language model tool: an agent records a fact, decision, open question,
 * open task or a note on a file. VS Code asks the person first, showing the exact line and the
 * file it goes to (or that it will be held for review); the write runs in the language server
 * with core's rememberItem (redaction, instruction flagging, the store lock, atomic replace).
 */
import * as vscode from 'vscode';
import type { KnowledgeToolInput } from '../../core/services/agentTools/languageModelTools';
import type { RememberPlan } from '../../core/store/items/rememberItem';
import type { StoreService } from '../storeService';
import type { SearchClient } from './searchClient';
import { noStoreReply, plainReply } from './toolReply';

/** The input as package.json declares it (core/services/agentTools/languageModelTools.ts). */
export type RememberToolInput = KnowledgeToolInput<'lore_remember'>;

/** Provenance source of what an agent records through VS Code's tools: `[from: vscode-agent, date]`. */
export const AGENT_SOURCE = 'vscode-agent';

/** A code block that no line can close early (a line holding ``` gets a longer fence). */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}markdown\n${text}\n${fence}`;
}

/** What the confirmation says: the line and its destination, exactly as rememberItem writes them. */
export function confirmationText(plan: Extract<RememberPlan, { ok: true }>): string {
  const where = plan.notedPath !== undefined ? `\`${plan.file}\` (the notes on \`${plan.notedPath}\`)` : `\`${plan.file}\``;
  if (plan.held) {
    return `This reads as an instruction to an agent (${plan.held.join(', ')}), so Lore will hold it in \`review.md\` for a person to accept before it reaches ${where}:\n\n${fenced(plan.line)}`;
  }
  return `Lore will add this line to ${where}:\n\n${fenced(plan.line)}`;
}

function toolInput(input: RememberToolInput): RememberToolInput & { source: string } {
  return {
    kind: input.kind,
    text: String(input.text ?? ''),
    ...(input.detail ? { detail: String(input.detail) } : {}),
    ...(input.path ? { path: String(input.path) } : {}),
    source: AGENT_SOURCE,
  };
}

/**
 * The tool's implementation. VS Code shows its confirmation as a modal dialog when the tool is
 * invoked outside a chat, which a test inside the extension host cannot answer: the API hands the
 * implementation out so a test can run prepareInvocation and invoke as VS Code does.
 */
export function createRememberTool(store: StoreService, search: SearchClient): vscode.LanguageModelTool<RememberToolInput> {
  return {
    prepareInvocation: async (options) => {
      if (!store.exists) return { invocationMessage: 'Lore has no knowledge store here' };
      const plan = await search.planRemember(toolInput(options.input));
      // Refusals need no confirmation: invoke says why and writes nothing.
      if (!plan.ok) return { invocationMessage: `Lore cannot record this: ${plan.reason}` };
      return {
        invocationMessage: `Recording a ${plan.kind} in Lore`,
        confirmationMessages: { title: `Remember this ${plan.kind} in Lore?`, message: new vscode.MarkdownString(confirmationText(plan)) },
      };
    },
    invoke: async (options) => {
      if (!store.exists) return plainReply(noStoreReply(store));
      const result = await search.remember(toolInput(options.input));
      if (!result.ok) return plainReply(`Not recorded: ${result.reason}`);
      const { plan } = result;
      if (result.where === 'review') {
        return plainReply(
          `Held for review, not recorded yet: it reads as an instruction to an agent (${plan.held?.join(', ')}). A person must accept it in the Review view (or with \`lore review\`) first. Held (id ${plan.id}): ${plan.line}`,
        );
      }
      return plainReply(
        result.added
          ? `Recorded in ${result.written} (id ${plan.id}): ${plan.line}`
          : `Already recorded in ${result.written} (id ${plan.id}): ${plan.line}`,
      );
    },
  };
}

export function registerRememberTool(tool: vscode.LanguageModelTool<RememberToolInput>): vscode.Disposable {
  return vscode.lm.registerTool<RememberToolInput>('lore_remember', tool);
}
