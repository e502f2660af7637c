/**
 * An extraction thread (extractThreads.ts): prepares each batch of source files it is sent
 * (read, hash, documents) and sends the results back in the batch's order.
 */
import { parentPort } from 'node:worker_threads';
import { prepareFile } from './extractDocs';
import type { ExtractBatch, ExtractBatchResult } from './extractThreads';
import { clearFrontmatterMemo } from '../../base/yamlFrontmatter';
import { rememberStoreRoot } from '../../base/storeLinks';

parentPort?.on('message', (batch: ExtractBatch) => {
  // This thread's own record of stores (storeLinks.ts): without it, no file would be in a store
  // and a link out of it would be read. A file not read is prepared again by the writer, which
  // says why.
  rememberStoreRoot(batch.storeRoot);
  const reply: ExtractBatchResult = {
    start: batch.start,
    results: batch.files.map((f) => prepareFile(f, batch.maxBytes, f.unchangedHash)),
  };
  // What gray-matter cached for the notes of this batch goes with it.
  clearFrontmatterMemo();
  parentPort!.postMessage(reply);
});
