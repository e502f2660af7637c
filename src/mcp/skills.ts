/**
 * The project's playbooks served as skills (the MCP Skills extension, SEP-2640; the skills
 * themselves are made in core/model/playbookSkills): the server declares
 * `capabilities.extensions["io.modelcontextprotocol/skills"]`, answers `skills/list` and
 * `skills/get` with each skill's entry (its SKILL.md's URI, frontmatter, and the one file's URI,
 * sha256 digest and size), and serves each SKILL.md through `resources/read` as
 * `skill://<name>/SKILL.md` (listed by resources/list with the frontmatter's name and description).
 * A 2026-07-28 request's result gets its caching hints (private, not to be kept) where every
 * modern result gets them (protocolEras). Skills are read from playbooks.md on each request, as the resources are: a playbook a harvest or
 * a teammate's pull adds is a skill on the next listing (the category's change notifications
 * already tell a client the resource list changed). Items held for review and superseded ones are
 * not skills.
 */
import * as path from 'node:path';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { readTextIfExists } from '../core/base/readText';
import { CATEGORY_FILES } from '../core/model/categories';
import { SKILLS_EXTENSION, playbookSkills, type PlaybookSkill } from '../core/model/playbookSkills';
import { agentItemFilter } from '../core/store/heldItems';
import type { StoreSession } from './storeSession';

const MARKDOWN = 'text/markdown';

const ListSkillsRequestSchema = z.object({
  method: z.literal('skills/list'),
  params: z.object({ cursor: z.string().optional() }).passthrough().optional(),
});
const GetSkillRequestSchema = z.object({
  method: z.literal('skills/get'),
  params: z.object({ uri: z.string().max(2048) }).passthrough(),
});

/** The skills of the session's store; none without a store. */
async function currentSkills(session: StoreSession): Promise<PlaybookSkill[]> {
  const lookup = await session.lookup();
  if (!lookup.found) return [];
  const text = readTextIfExists(path.join(lookup.paths.root, CATEGORY_FILES.playbooks.file));
  return text ? playbookSkills(text, agentItemFilter(lookup.paths)) : [];
}

/** A skill's entry as skills/list and skills/get give it. */
function entryOf(skill: PlaybookSkill) {
  return {
    uri: skill.uri,
    frontmatter: { name: skill.name, description: skill.description },
    resources: [{ uri: skill.uri, digest: skill.digest, size: skill.size }],
  };
}

const unknownSkill = (uri: string) => new McpError(ErrorCode.InvalidParams, `no skill ${uri}: skills/list names the skills served`);

/** Declares the Skills extension and registers skills/list, skills/get and the SKILL.md resources on `server`. */
export function registerSkills(server: McpServer, session: StoreSession): void {
  server.server.registerCapabilities({ extensions: { [SKILLS_EXTENSION]: {} } });
  // Every skill is in one page: a store holds tens of playbooks, and an entry is a few hundred bytes.
  server.server.setRequestHandler(ListSkillsRequestSchema, async () => ({
    skills: (await currentSkills(session)).map(entryOf),
  }));
  server.server.setRequestHandler(GetSkillRequestSchema, async (request) => {
    const skill = (await currentSkills(session)).find((s) => s.uri === request.params.uri);
    if (!skill) throw unknownSkill(request.params.uri);
    return { skill: entryOf(skill) };
  });

  server.registerResource(
    'skill',
    new ResourceTemplate('skill://{name}/SKILL.md', {
      list: async () => ({
        resources: (await currentSkills(session)).map((skill) => ({
          uri: skill.uri,
          name: skill.name,
          description: skill.description,
          mimeType: MARKDOWN,
          size: skill.size,
        })),
      }),
      complete: { name: async (value) => (await currentSkills(session)).map((s) => s.name).filter((name) => name.startsWith(value)) },
    }),
    { title: 'Playbook skill', description: 'A playbook of this project as an Agent Skill (skills/list names them)', mimeType: MARKDOWN },
    async (uri) => {
      const skill = (await currentSkills(session)).find((s) => s.uri === uri.href);
      if (!skill) throw unknownSkill(uri.href);
      // Served byte for byte as listed: the digest is of this text, which opens with the frontmatter
      // and carries the knowledge framing right after it (redacted when the skill was made).
      return { contents: [{ uri: skill.uri, mimeType: MARKDOWN, text: skill.text }] };
    },
  );
}
