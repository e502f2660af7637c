/**
 * Reads a store's topics: every `topics/*.md` with a plain name, in name order. A file that does
 * not parse is reported with its problem and skipped; the others still load. A store without a
 * topics folder has no topics, at the cost of one failed readdir.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StorePaths } from '../../store/storePaths';
import { sha256Hash } from '../../base/lazyCrypto';
import type { TopicFrontmatter } from './topicSchema';
import type { Topic, TopicProblem, TopicSet } from './topicTypes';
import { lazy } from '../../base/lazy';
import { topicFileNames, topicsDir } from './topicsFolder';
import { readStoreFile } from '../../base/readText';

const topicBuildModule = lazy(() => require('./topicBuild') as typeof import('./topicBuild'));
const topicCacheModule = lazy(() => require('./topicCache') as typeof import('./topicCache'));
const topicFileModule = lazy(() => require('./topicFile') as typeof import('./topicFile'));

/** A topic file larger than this is refused (instructions are a few KB). */
export const MAX_TOPIC_FILE_BYTES = 256 * 1024;

export { topicsDir };

/** Loads the store's topics; never throws for a bad file. */
export function loadTopics(paths: StorePaths): TopicSet {
  const names = topicFileNames(paths);
  if (!names.length) return { topics: [], problems: [] };
  // Loaded only when there are topic files; the parser (gray-matter, zod) only for files not in the memo.
  const { buildTopic, isTopicProblem, TOPIC_FILE_NAME } = topicBuildModule();
  const { TopicMemo } = topicCacheModule();
  const memo = new TopicMemo(paths);
  const topics: Topic[] = [];
  const problems: TopicProblem[] = [];
  for (const name of names) {
    const file = `topics/${name}`;
    if (!TOPIC_FILE_NAME.test(name)) {
      problems.push({ file, message: 'the name must be letters, digits, dots, dashes or underscores, ending in .md' });
      continue;
    }
    const full = path.join(topicsDir(paths), name);
    try {
      const stat = fs.lstatSync(full);
      if (!stat.isFile()) {
        problems.push({ file, message: stat.isSymbolicLink() ? 'a symbolic link is not read as a topic' : 'not a regular file' });
        continue;
      }
      if (stat.size > MAX_TOPIC_FILE_BYTES) {
        problems.push({ file, message: `larger than ${MAX_TOPIC_FILE_BYTES} bytes` });
        continue;
      }
      const text = readStoreFile(full, 'utf8');
      const hash = sha256Hash().update(text).digest('hex');
      let data: { meta: TopicFrontmatter; content: string } | TopicProblem | undefined = memo.get(name, hash);
      if (!data) {
        data = topicFileModule().parseTopicData(file, text);
        if (!('message' in data)) memo.set(name, { hash, meta: data.meta, content: data.content });
      }
      const result = 'message' in data ? data : buildTopic(file, text, data.meta, data.content);
      if (isTopicProblem(result)) problems.push(result);
      else topics.push(result);
    } catch (error) {
      problems.push({ file, message: `${(error as NodeJS.ErrnoException).code ?? 'error'}: ${(error as Error).message}` });
    }
  }
  memo.save();
  return { topics, problems };
}
