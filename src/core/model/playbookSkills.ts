/**
 * Playbooks as Agent Skills (the MCP Skills extension, SEP-2640): each current playbook item of
 * playbooks.md (`- **name**: steps [from: ID, date]`) is served as a skill an agent can load when
 * the task at hand matches it. A skill is one file, SKILL.md: YAML frontmatter (`name`, a stable
 * slug of the playbook's name; `description`, the name and the first words of the steps), then the
 * knowledge framing (the steps are recorded knowledge, quoted as data), the steps, where they came
 * from and the item's id (what change_item needs to correct it). The listing names each file with
 * its size and the sha256 of its bytes, written `sha256:<hex>` as the ledger and file identities
 * hash content, so a client can check what it read is what was listed.
 */
import { sha256Hash } from '../base/lazyCrypto';
import { listItems } from './categoryFile';
import { listItemId } from './itemId';
import { itemStatement, renderItemLine } from './itemLines';
import { formatSources, parseProvenance, plainSources } from './provenance';
import { KNOWLEDGE_FRAMING } from './safety/dataFraming';
import { redactSecrets } from './safety/redact';

/** The extension's identifier, declared under `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
/** The file every skill has at its root. */
export const SKILL_FILE = 'SKILL.md';
/** Skill names: 1-64 lowercase letters, digits and single hyphens, not at either end (Agent Skills naming rules). */
export const SKILL_NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
const MAX_NAME = 64;
/** A description long enough to tell when to use the skill, short enough for a listing a model reads whole. */
const MAX_DESCRIPTION = 200;

export interface PlaybookSkill {
  /** The skill's name: the slug of the playbook's name (a later playbook of the same slug gets `-2`, `-3`, …). */
  name: string;
  description: string;
  /** `skill://<name>/SKILL.md`. */
  uri: string;
  /** SKILL.md as served, byte for byte. */
  text: string;
  /** `sha256:<hex>` of the UTF-8 bytes of `text`. */
  digest: string;
  /** Bytes of `text`. */
  size: number;
}

/** The URI of a skill's SKILL.md. */
export function skillUri(name: string): string {
  return `skill://${name}/${SKILL_FILE}`;
}

/** The skill name of a playbook name: lowercase ASCII words joined by single hyphens, whole words up to 64 characters. */
export function skillSlug(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_NAME) break;
    slug = next;
  }
  return slug || words[0]?.slice(0, MAX_NAME) || '';
}

/** A playbook's name and steps: `**name**: steps`, else `name: steps`, else the whole text as both. */
function nameAndSteps(statement: string): { name: string; steps: string } {
  const bold = /^\*\*(.+?)\*\*\s*:?\s*([\s\S]*)$/.exec(statement);
  if (bold) return { name: bold[1].trim(), steps: bold[2].trim() || bold[1].trim() };
  const colon = /^([^:]{1,120}):\s+([\s\S]+)$/.exec(statement);
  if (colon) return { name: colon[1].trim(), steps: colon[2].trim() };
  return { name: statement, steps: statement };
}

/** `text` cut after whole words to at most `max` characters, with `…` when cut. */
function wholeWords(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 0 ? cut.slice(0, space) : cut).replace(/[\s,;:.—-]+$/, '')}…`;
}

/** SKILL.md of a playbook. JSON strings are YAML double-quoted scalars, so any description is safe in the frontmatter. */
function skillText(name: string, description: string, title: string, steps: string, from: string | undefined, id: string): string {
  return [
    '---',
    `name: ${name}`,
    `description: ${JSON.stringify(description)}`,
    '---',
    KNOWLEDGE_FRAMING,
    '',
    `# ${title}`,
    '',
    steps,
    '',
    `Playbook item ${id}${from ? ` ${from}` : ''}`,
    '',
  ].join('\n');
}

/**
 * The skills of a playbooks.md text: one per item `keep` lets through (the caller's filter leaves
 * out items held for review and superseded ones), in file order, secrets redacted. An item's id
 * is the one search gives it (listItemId), so change_item can correct the playbook by it.
 */
export function playbookSkills(text: string, keep: (line: string) => boolean = () => true): PlaybookSkill[] {
  const skills: PlaybookSkill[] = [];
  const taken = new Set<string>();
  for (const item of listItems(text)) {
    // The whole item, continuation lines joined: a playbook's steps often wrap, and the filter must read them all.
    if (!keep(renderItemLine(item.text))) continue;
    const statement = redactSecrets(itemStatement(item.text));
    if (!statement) continue;
    const { name: title, steps } = nameAndSteps(statement);
    const id = listItemId(item);
    const base = skillSlug(title) || `playbook-${id}`;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_NAME - `-${n}`.length).replace(/-+$/, '')}-${n}`;
    taken.add(name);
    const provenance = parseProvenance(item.text);
    const from = provenance ? formatSources(plainSources(provenance.sources)) : undefined;
    const description = wholeWords(title === steps ? title : `${title}: ${steps}`, MAX_DESCRIPTION);
    const body = skillText(name, description, title, steps, from, id);
    const bytes = Buffer.from(body, 'utf8');
    skills.push({
      name,
      description,
      uri: skillUri(name),
      text: body,
      digest: `sha256:${sha256Hash().update(bytes).digest('hex')}`,
      size: bytes.length,
    });
  }
  return skills;
}
