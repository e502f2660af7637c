/**
 * Conversation formats Lore knows by sight but cannot read yet. When no importer reads a file,
 * the harvest report names what the file looks like ("a Gemini CLI prompt log") rather than
 * only what it is not. A format leaves this list when it gets an importer.
 */

interface KnownFormat {
  /** What the file is, as the report says it: "looks like <name>, which Lore does not read yet". */
  name: string;
  matches(head: string): boolean;
}

const KNOWN_FORMATS: readonly KnownFormat[] = [
  {
    // ~/.gemini/tmp/<project>/logs.json: the prompts typed, `[{sessionId, messageId, type, message, timestamp}]`.
    name: 'a Gemini CLI prompt log (logs.json)',
    matches: (head) => /"sessionId"\s*:/.test(head) && /"messageId"\s*:\s*\d/.test(head),
  },
  {
    // `/chat save` checkpoints, `{history: [{role, parts}]}` (older ones a bare array): Gemini API contents.
    name: 'a Gemini CLI chat checkpoint (Gemini API contents)',
    // OpenCode messages also have `role: "user"` and `parts`, but their parts start with `type`.
    matches: (head) =>
      /"role"\s*:\s*"(?:user|model)"/.test(head) &&
      /"parts"\s*:\s*\[\s*\{\s*"(?:text|functionCall|functionResponse|inlineData|thought)"/.test(head),
  },
  {
    // Cline / Roo Code / Kilo Code tasks/<id>/ui_messages.json: what the chat panel showed,
    // `[{ts, type: "say" | "ask", say | ask, text}]`. cline.ts reads the same task from its
    // api_conversation_history.json, so this file is kept, never harvested twice.
    name: 'a Cline task’s panel log (ui_messages.json; Lore reads the api_conversation_history.json next to it)',
    matches: (head) => /^\s*\[/.test(head) && /"ts"\s*:\s*\d/.test(head) && /"type"\s*:\s*"(?:say|ask)"/.test(head),
  },
  {
    // One file of OpenCode's storage folder (session/, message/ or part/): a piece of a session,
    // which opencodeStore.ts assembles when the harvest is given the folder or opencode.db.
    name: 'one file of an OpenCode session (harvest the storage folder or opencode.db, which Lore reads whole)',
    matches: (head) => /"id"\s*:\s*"(?:ses|msg|prt)_/.test(head) && /"(?:sessionID|projectID)"\s*:/.test(head),
  },
];

/** The name of a known but unsupported format the file looks like, or undefined. */
export function unsupportedFormatName(head: string): string | undefined {
  return KNOWN_FORMATS.find((f) => f.matches(head))?.name;
}
