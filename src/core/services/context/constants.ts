/** Constants of context building that commands need before loading the compiler. */

/** The default budget of a compiled context: 8K tokens (Autopoiesis §6.2). */
export const DEFAULT_BUDGET_TOKENS = 8000;
