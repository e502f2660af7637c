/**
 * The agent instruction files Lore can keep a digest block in (the `lore.instructions.sync`
 * choices): a pure list, apart from the code that writes them (instructionSync.ts), so the VS Code
 * extension can offer the choice without loading a writer.
 */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md'] as const;
