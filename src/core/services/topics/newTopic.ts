/**
 * A new topic file from a template ("New Topic…" in the editor): every field of the frontmatter
 * with its default and a comment, so a person edits rather than looks up the format.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../base/atomicWrite';
import type { StorePaths } from '../../store/storePaths';
import { topicsDir } from './loadTopics';
import { TOPIC_FILE_NAME } from './topicBuild';

/** The template's text for a topic called `name`. */
export function topicTemplate(name: string): string {
  return [
    '---',
    `description: What ${name} is about, in one line (the gate reads it)`,
    'triggers:',
    `  - keywords: [${name.replace(/[-_.]+/g, ' ')}]   # words or phrases, on word edges, any case`,
    '  # - pattern: "\\\\bexample\\\\b"                # a regular expression, case-insensitive',
    '  #   scope: input                                # input (default) | output (agent replies) | both',
    '  # - glob: "src/**/*.ts"                         # files the message names',
    'similarity_threshold: 0.15   # tier 2: how similar a message must be without a trigger',
    'subscriptions: []            # workspace files injected with the instructions, e.g. [docs/guide.md]',
    'activation: auto             # auto | gated (a model confirms) | manual (only by name)',
    'priority: medium             # low | medium | high | critical',
    'max_context_kb: 4            # the share of the context for the instructions and subscriptions',
    '---',
    `# ${name}`,
    '',
    'The instructions the agent gets when this topic is active.',
    '',
  ].join('\n');
}

/**
 * Creates `topics/<name>.md` from the template and returns its path.
 * @throws Error for a name that is not plain, or when the file exists.
 */
export function createTopicFile(paths: StorePaths, name: string): string {
  const fileName = `${name.trim()}.md`;
  if (!TOPIC_FILE_NAME.test(fileName)) throw new Error(`"${name}" is not a topic name: letters, digits, dots, dashes or underscores`);
  const file = path.join(topicsDir(paths), fileName);
  if (fs.existsSync(file)) throw new Error(`${file} already exists`);
  writeFileAtomic(file, topicTemplate(name.trim()));
  return file;
}
