/**
 * Tier 2: how similar a message is to each topic, as the cosine of TF-IDF vectors (sublinear term
 * frequency, smoothed IDF over the topics, as scikit-learn's TfidfVectorizer does). A topic's
 * document is its description, body and keywords (keywords count twice: the author chose them).
 * Topic vectors are computed once per topic set; scoring a message costs one pass over its words
 * plus one lookup per (word, topic) pair.
 */
import { STOPWORDS } from '../search/stopwords';
import { MAX_MATCH_INPUT_CHARS } from './safeRegex';
import type { Topic } from './topicTypes';

/** Words of at least two letters or digits, lower-cased, stop words left out. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]{2,}/gu)) if (!STOPWORDS.has(match[0])) out.push(match[0]);
  return out;
}

function counts(words: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const w of words) map.set(w, (map.get(w) ?? 0) + 1);
  return map;
}

/**
 * Unit-length TF-IDF weights of one document. Words no topic has get `unknownIdf` (the rarest
 * possible weight) in the norm: a long message that shares one word with a topic is mostly about
 * something else, and should not score as if that word were all it said.
 */
function weigh(tf: Map<string, number>, idf: Map<string, number>, unknownIdf = 0): Map<string, number> {
  const weights = new Map<string, number>();
  let norm = 0;
  for (const [term, count] of tf) {
    const known = idf.get(term);
    const w = (1 + Math.log(count)) * (known ?? unknownIdf);
    if (w <= 0) continue;
    if (known !== undefined) weights.set(term, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [term, w] of weights) weights.set(term, w / norm);
  return weights;
}

/** The topics' vectors, for scoring messages against them. */
export interface SimilarityIndex {
  idf: Map<string, number>;
  /** The IDF of a word no topic has. */
  unknownIdf: number;
  /** One unit vector per topic, in the topics' order. */
  vectors: Array<Map<string, number>>;
}

/** The text of a topic that tier 2 compares a message with. */
function topicDocument(topic: Topic): string[] {
  const keywords = topic.triggers.flatMap((t) => (t.kind === 'keywords' ? t.keywords : []));
  return terms([topic.name.replace(/[-_.]/g, ' '), topic.description, topic.body, ...keywords, ...keywords].join('\n'));
}

/** Builds the index of a topic set. */
export function buildSimilarityIndex(topics: readonly Topic[]): SimilarityIndex {
  const tfs = topics.map((t) => counts(topicDocument(t)));
  const df = new Map<string, number>();
  for (const tf of tfs) for (const term of tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const n = topics.length;
  const idf = new Map<string, number>();
  for (const [term, d] of df) idf.set(term, Math.log((1 + n) / (1 + d)) + 1);
  return { idf, unknownIdf: Math.log(1 + n) + 1, vectors: tfs.map((tf) => weigh(tf, idf)) };
}

/** The cosine of the message against every topic, in the topics' order (0 when nothing is shared). */
export function similarityScores(index: SimilarityIndex, message: string): number[] {
  const query = weigh(counts(terms(message.slice(0, MAX_MATCH_INPUT_CHARS))), index.idf, index.unknownIdf);
  return index.vectors.map((vector) => {
    let dot = 0;
    for (const [term, w] of query) {
      const v = vector.get(term);
      if (v !== undefined) dot += w * v;
    }
    // Rounded so the score printed, logged and compared is the same number.
    return Math.round(dot * 1000) / 1000;
  });
}
