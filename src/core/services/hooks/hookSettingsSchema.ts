/**
 * The parts of agent hook configuration files Lore edits, checked before it touches them: Claude
 * Code's settings (`hooks.<Event>[]` of matcher groups `{matcher?, hooks: [{type, command}]}`,
 * https://code.claude.com/docs/en/hooks) and VS Code's hook files (`hooks.<Event>[]` of
 * `{type, command, windows?, linux?, osx?, cwd?, env?, timeout?}`,
 * https://code.visualstudio.com/docs/agents/reference/hooks-reference). Every other key is let
 * through untouched. Loaded on first use: zod is a large share of the CLI's start-up.
 */
import { z } from 'zod';
import { describeSchemaIssue } from '../../base/schemaIssue';

const command = z.looseObject({ type: z.string(), command: z.string().optional() });
const claudeSettings = z.looseObject({
  hooks: z.record(z.string(), z.array(z.looseObject({ matcher: z.string().optional(), hooks: z.array(command) }))).optional(),
});
const vscodeHooks = z.looseObject({ hooks: z.record(z.string(), z.array(command)).optional() });

/** Undefined when the parsed file has the shape Lore can edit, else what is wrong (field and message). */
export function settingsShapeProblem(format: 'claude' | 'vscode', value: unknown): string | undefined {
  const result = (format === 'claude' ? claudeSettings : vscodeHooks).safeParse(value);
  return result.success ? undefined : describeSchemaIssue(result.error);
}
