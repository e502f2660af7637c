/**
 * The conclusion of each request: the agent's last turn before the person speaks again. Agents
 * close an answer by saying what they did ("I've updated `package.json` to accept Node 20 and
 * newer.", "Updated .gitignore for Rust artifacts.", "CLAUDE.md has been created with …", a
 * "Changes made" list). That closing sentence is the request's outcome; the turns before it are
 * the agent thinking aloud and its plans. Only work stated as done counts: a sentence in the
 * past tense, with a verb that changes something (reading, checking and committing are not work
 * worth remembering).
 */

import { clean } from './rulesMarkers';
import type { Transcript } from './rulesTranscript';

/** Verbs that change a project, in the past tense. Listed, not any "-ed" word: "used", "checked" and "tested" change nothing. */
const CHANGE_VERBS =
  'updated|changed|added|fixed|created|removed|renamed|moved|replaced|implemented|refactored|switched|upgraded|downgraded|converted|rewrote|rewritten|configured|set up|migrated|extracted|split|merged|wrote|written|deleted|simplified|documented|introduced|enabled|disabled|pinned|restored|reverted|ported|built|made|restructured|reorganized|consolidated|corrected|adjusted|modified|installed|uninstalled|generated|integrated|wired|pointed|exposed|typed|wrapped|dropped|deprecated|bumped';
/** "Perfect! I've updated X …", "We have now added X …": the agent reporting its own change. */
const FIRST_PERSON_DONE = new RegExp(
  `^(?:(?:perfect|great|excellent|done|all set|ok(?:ay)?|alright|good news|success)[!.,:]+\\s+)*(?:i|we)(?:'ve| have)\\s+(?:now\\s+|also\\s+|successfully\\s+|just\\s+)*(${CHANGE_VERBS})\\s+(\\S.*)$`,
  'i',
);
/** "I changed the mount point to …": the simple past, with the verbs whose past differs from the present. */
const FIRST_PERSON_PAST = new RegExp(
  `^(?:(?:perfect|great|excellent|done|ok(?:ay)?|alright)[!.,:]+\\s+)*(?:i|we)\\s+(?:also\\s+|then\\s+|just\\s+)*(${CHANGE_VERBS.split('|')
    .filter((verb) => /ed$|^(?:wrote|rewrote|built)$/.test(verb))
    .join('|')})\\s+(\\S.*)$`,
  'i',
);
/** "Updated [.gitignore](…) for Rust artifacts.": a terse report led by the verb. */
const VERB_FIRST_DONE = new RegExp(
  `^(${CHANGE_VERBS.replace(/\|(?:written|rewritten)\b/g, '')})\\s+(?!the following\\b|to\\b)(\\S.*)$`,
  'i',
);
/** "CLAUDE.md has been created with …": the changed thing as subject. */
const PASSIVE_DONE = new RegExp(
  `^(\\S[^,;:]{1,80}?)\\s+(?:has|have)\\s+(?:now\\s+)?been\\s+(?:successfully\\s+)?(${CHANGE_VERBS})\\b(.*)$`,
  'i',
);
/** A leading past-tense verb: how a done item in a list reads ("Added …", "Switched to …"). */
const PAST_LEAD = new RegExp(`^(?:${CHANGE_VERBS})\\b`, 'i');
/** Chinese states the change with the verb, not the tense: 添加了 (added), 修改 (changed) … */
const CJK_CHANGE = /(?:添加|新增|修改|更新|删除|移除|替换|修复|创建|保留|改为|简化)/;
/**
 * The same report in Japanese ("CLAUDE.mdファイルを最新の状態にアップデートしました": updated CLAUDE.md)
 * and Chinese ("已更新 README 的安装步骤": updated the README's install steps): the first clause.
 */
const CJK_DONE =
  /^([^。！!？?：:]*?(?:(?:更新|追加|修正|作成|削除|変更|実装|アップデート|移動|置換)(?:し|いた)ました|已(?:经)?(?:添加|新增|修改|更新|删除|移除|替换|修复|创建|简化)[^。！!？?：:]*))/;
/** A clause in Chinese or Japanese needs this many characters to name what changed. */
const MIN_CJK_CHARS = 10;
/** Not work on the project: the change was to a commit, a message, the conversation or a task's status. */
const NOT_PROJECT_WORK =
  /\b(?:commit(?:ted)?|commit message|amended|staged|pushed|the (?:chat|conversation)|todo list|task list|(?:task|ticket|issue) status)\b/i;
/** Aider fixing its own edit block ("Updated the SEARCH part to match"): the tool's format, not the project. */
const EDIT_BLOCK_WORK = /\b(?:SEARCH|REPLACE)\b/;
/** A done sentence that goes on to what is next is a plan step, not a conclusion. */
const PLAN = /\b(?:next,? i(?:'ll| will)|let me|i'll|i will|now i need|then i(?:'ll| will))\b/i;
/** The first clause is enough: what follows ", which will …" or ". Here's what …" is commentary. */
const TRAILER = /(?:\s*[,;]?\s+(?:which|so that|so you|that way|making|ensuring|allowing)\b.*$)|(?:[.!]\s.*$)|[.!:]+$/i;
const MAX_DONE_CHARS = 240;
/** A done statement shorter than this says nothing ("Fixed it"). */
const MIN_WORDS = 3;
/** A statement cut before its object ("Created a rule that", "was updated to") says nothing. */
const DANGLING = /\b(?:that|which|to|with|for|and|or|the|a|an|of|in|by|as)$/i;
/** A sentence that speaks to the person ("Your setup is working") reassures; it is not work done or a finding. */
const ADDRESSES_PERSON = /^(?:your|you)\b/i;
/** Filing a task, ticket or issue is bookkeeping: the work it names is still to do. */
const FILED_TASK = /^(?:created|filed|opened|added|wrote)\s+(?:a\s+)?(?:new\s+)?(?:task|ticket|issue)\b/i;
/** "Updated Core Methods section - …", "Updated Cleanup Considerations - Removed …": one edit of a document, heading by heading. */
const DOC_SECTION_EDIT = new RegExp(
  `^(?:${CHANGE_VERBS})\\s+(?:(?:the\\s+|a\\s+)?[^.:;\`]{0,60}?\\b(?:section|subsection|note|paragraph|heading)\\b|[^.:;\`]{2,60}\\s[-–—]\\s+(?:${CHANGE_VERBS})\\b)`,
  'i',
);
/** "Updated .gitignore for Rust artifacts": a routine chore the file itself records. */
const IGNORE_FILE_CHORE = /^\S+\s+(?:the\s+)?(?:a\s+)?`?\.\w*ignore\b/i;
/** `nvm use 22`, `source .venv/bin/activate`: a switch in one shell, gone when it closes. */
const SHELL_SESSION_STEP = /`(?:(?:nvm|fnm|rvm|volta|sdk|pyenv|rbenv)\s+(?:use|shell)|conda\s+activate|source\s|export\s|cd\s)/i;
/** "Fixed it by: …", "Fixed the issue": the object is a pronoun or the problem of the moment. */
const PRONOUN_OBJECT = /^\S+\s+(?:it|this|that|them|everything|things|the (?:issue|problem|bug|error))\b/i;
const CJK_TEXT = /[\u3040-\u30ff\u4e00-\u9fff]/;
/**
 * A request that is an agent's own command alone on its line (`/init`, `/terminal-setup`): its
 * outcome is housekeeping. `/orchestrator update CLAUDE.md` carries a request of the person's.
 */
const SLASH_COMMAND = /^(?:[❯>$]\s*)?(?:\/[\w:-]+\s*$|<command-(?:name|message)>)/;

/**
 * The indices of the agent turns that conclude a request: each one directly before a user turn,
 * or last, unless the request was one of the agent's own commands.
 */
export function conclusionTurns(transcript: Transcript): Set<number> {
  const out = new Set<number>();
  const turns = transcript.turns;
  let request = '';
  turns.forEach((turn, t) => {
    if (turn.role === 'user') request = turn.lines.find((line) => line.trim()) ?? '';
    else if (turn.role === 'agent' && (t + 1 === turns.length || turns[t + 1].role === 'user') && !isSlashCommand(request)) out.add(t);
  });
  return out;
}

/** The work a closing sentence reports done, stated without its speaker ("Updated …"), if it reports some. */
export function doneWorkOf(sentence: string): string | undefined {
  const text = sentence.trim();
  if (PLAN.test(text) || notProjectWork(text)) return undefined;
  const cjk = CJK_DONE.exec(text)?.[1].trim();
  if (cjk) return cjk.length >= MIN_CJK_CHARS ? clean(cjk, MAX_DONE_CHARS) : undefined;
  const statement = speakerless(text);
  if (!statement) return undefined;
  const short = clean(ownedByProject(statement.replace(TRAILER, '')), MAX_DONE_CHARS);
  return short.split(/\s+/).length >= MIN_WORDS && !DANGLING.test(short) ? short : undefined;
}

/**
 * "`CHANGELOG.md` has been updated to:" followed by a list: the intro and the list's items are one
 * done statement ("CHANGELOG.md was updated to: remove duplicates; group by release").
 */
export function doneWithList(intro: string, listItems: string[]): string | undefined {
  const head = intro.trim();
  if (!head.endsWith(':') || listItems.length === 0 || PLAN.test(head) || notProjectWork(head)) return undefined;
  const statement = speakerless(head.slice(0, -1).trim());
  if (!statement) return undefined;
  const items = listItems.map((item) => item.trim().replace(/[.;:]+$/, '')).filter(Boolean);
  return clean(ownedByProject(`${statement}: ${items.join('; ')}`), MAX_DONE_CHARS);
}

/** A done statement without its speaker: "I've updated X" is "Updated X", "X has been created" is "X was created". */
function speakerless(text: string): string | undefined {
  const lead = FIRST_PERSON_DONE.exec(text) ?? FIRST_PERSON_PAST.exec(text) ?? VERB_FIRST_DONE.exec(text);
  if (lead) return `${capitalize(lead[1])} ${lead[2]}`;
  const passive = PASSIVE_DONE.exec(text);
  return passive ? `${passive[1]} was ${passive[2].toLowerCase()}${passive[3]}` : undefined;
}

/** "Updated your package.json": the project's file, whoever the reader is. */
function ownedByProject(text: string): string {
  return text.replace(/\byour\b/gi, 'the');
}

/**
 * Work done is worth a line only when a teammate can tell what changed next week. Left out: a
 * statement with no named subject ("Fixed the treasury init issue", "Added treasury funding",
 * "Fixed it by: …"), filing a task ("Created a new task (#015) …": the task is still open), one
 * line of a section-by-section edit log of a document ("Updated Core Methods section - …"), an
 * ignore-file chore, and a switch made in one shell (`nvm use 22`).
 */
export function isWorthKeepingDone(statement: string): boolean {
  const text = statement.trim();
  if (FILED_TASK.test(text) || DOC_SECTION_EDIT.test(text) || IGNORE_FILE_CHORE.test(text) || SHELL_SESSION_STEP.test(text)) return false;
  if (PRONOUN_OBJECT.test(text)) return false;
  return CJK_TEXT.test(text) || namesSubject(text);
}

/** A named thing: a code span, a file or path, an identifier, an acronym, or a capitalized name inside the sentence. */
function namesSubject(text: string): boolean {
  if (/`[^`]+`|\b[\w-]+\.[a-z]\w{0,5}\b|\w\/\w|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*|\b[A-Z]{3,}\b/.test(text)) return true;
  // A capital after the first word, unless it opens a clause ("Fixed configuration: Added …").
  return /(?<![.:;!?-]\s)(?<=\s)[A-Z][\w.-]*[a-z]/.test(text.replace(/^\S+/, ''));
}

/** Whether a statement speaks to the person rather than about the project. */
export function addressesPerson(text: string): boolean {
  return ADDRESSES_PERSON.test(text.trim());
}

/** Whether a request is one of the agent's own slash commands rather than something the person asked. */
export function isSlashCommand(request: string): boolean {
  return SLASH_COMMAND.test(request.trim());
}

/** Whether a summary item states work as done (led by a past-tense change verb; in Chinese, a change verb). */
export function isStatedDone(text: string): boolean {
  const done = PAST_LEAD.test(text.replace(/^[^\p{L}`]+/u, '')) || CJK_CHANGE.test(text);
  return done && !notProjectWork(text);
}

function notProjectWork(text: string): boolean {
  return NOT_PROJECT_WORK.test(text) || EDIT_BLOCK_WORK.test(text);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}
