/**
 * Reconstruct (Autopoiesis §8.7): the kept transcripts (transcripts/, transcriptFiles.ts) replayed
 * through the harvest with another prompt or model into a separate store, so a person can compare
 * what that would have made of the same conversations (storeDiff.ts) before taking any of it. The
 * live store is only read: the transcripts are read as sources from outside the new store, which
 * never reclaims what it did not receive in its own inbox, and the new store may not lie inside
 * the live one (nor hold it).
 *
 * The new store is marked with `reconstruction.json` (where from, provider, model, prompt), which
 * is also how a later reconstruct knows it may replace the folder, and how `lore diff` knows the
 * workspace its notes resolve against.
 */
import * as fs from 'node:fs';
import { removeNoFollow } from '../../base/storeLinks';
import * as path from 'node:path';
import { z } from 'zod';
import { runHarvest, type HarvestReport } from './runHarvest';
import { defaultPromptsDir, HARVEST_PROMPT } from './prompts';
import type { Provider } from '../providers/provider';
import { writeFileAtomic } from '../../base/atomicWrite';
import { initStore } from '../../store/initStore';
import { isInside, storePaths, type StorePaths } from '../../store/storePaths';
import { transcriptStats } from '../../store/transcriptFiles';
import { readStoreFile } from '../../base/readText';

export const RECONSTRUCTION_MARKER = 'reconstruction.json';

const markerSchema = z.object({
  reconstructedFrom: z.string(),
  workspace: z.string(),
  provider: z.string(),
  model: z.string().optional(),
  prompt: z.string(),
  at: z.string(),
});
export type ReconstructionMarker = z.infer<typeof markerSchema>;

export interface ReconstructOptions {
  live: StorePaths;
  /** The folder of the new store. */
  out: string;
  provider: Provider;
  model?: string;
  /** A harvest prompt to use instead of the live store's (or the default). */
  promptFile?: string;
  timeoutMs?: number;
  now?: Date;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

export class ReconstructRefused extends Error {}

/** The marker of a reconstructed store, or undefined when `dir` is not one. */
export function readReconstructionMarker(dir: string): ReconstructionMarker | undefined {
  try {
    const parsed = markerSchema.safeParse(JSON.parse(readStoreFile(path.join(dir, RECONSTRUCTION_MARKER), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The paths of a reconstructed store, resolving notes against the workspace it was made for. */
export function reconstructedPaths(dir: string): StorePaths {
  const marker = readReconstructionMarker(dir);
  if (!marker)
    throw new ReconstructRefused(
      `${dir} is not a reconstructed store (no valid ${RECONSTRUCTION_MARKER}; lore reconstruct --out ${dir} makes one)`,
    );
  return storePaths(dir, marker.workspace);
}

/** Refuses a target that overlaps the live store or holds anything but an earlier reconstruction. */
function prepareTarget(live: StorePaths, out: string): void {
  if (isInside(live.root, out) || isInside(out, live.root))
    throw new ReconstructRefused(`--out ${out} overlaps the live store ${live.root}; choose a folder outside it`);
  let names: string[];
  try {
    names = fs.readdirSync(out);
  } catch {
    return; // Does not exist yet.
  }
  if (names.length === 0) return;
  if (!readReconstructionMarker(out))
    throw new ReconstructRefused(`--out ${out} is not empty and is not an earlier reconstruction; choose an empty or new folder`);
  // An earlier reconstruction is Lore's own output, derived from the transcripts: made again from scratch.
  removeNoFollow(out, { recursive: true, force: true });
}

/** Replays every kept transcript of `live` into a new store at `out`. */
export async function reconstructStore(options: ReconstructOptions): Promise<HarvestReport & { out: string; transcripts: number }> {
  const { live } = options;
  const out = path.resolve(options.out);
  const kept = transcriptStats(live);
  if (kept.count === 0)
    throw new ReconstructRefused(
      `the store keeps no transcripts (${live.transcripts}): nothing to replay (transcripts are kept by harvests unless config.json says "transcripts": false)`,
    );
  const prompt = options.promptFile ? readStoreFile(options.promptFile, 'utf8') : undefined;
  if (prompt !== undefined && !prompt.trim()) throw new ReconstructRefused(`--prompt ${options.promptFile} is empty`);
  prepareTarget(live, out);
  const paths = storePaths(out, live.workspace);
  initStore(paths, defaultPromptsDir());
  // The live store's own prompt, unless another is given: what changes is what the person chose.
  const livePrompt = path.join(live.prompts, HARVEST_PROMPT);
  const promptText = prompt ?? (fs.existsSync(livePrompt) ? readStoreFile(livePrompt, 'utf8') : undefined);
  if (promptText !== undefined) writeFileAtomic(path.join(paths.prompts, HARVEST_PROMPT), promptText);
  writeFileAtomic(paths.config, JSON.stringify({ reclaim: 'keep', transcripts: false }, null, 2) + '\n');
  const marker: ReconstructionMarker = {
    reconstructedFrom: live.root,
    workspace: live.workspace,
    provider: options.provider.name,
    ...(options.model ? { model: options.model } : {}),
    prompt: options.promptFile ? path.resolve(options.promptFile) : fs.existsSync(livePrompt) ? livePrompt : 'default',
    at: (options.now ?? new Date()).toISOString(),
  };
  writeFileAtomic(path.join(out, RECONSTRUCTION_MARKER), JSON.stringify(marker, null, 2) + '\n');
  const report = await runHarvest({
    paths,
    sources: [live.transcripts],
    mode: 'apply',
    provider: options.provider,
    model: options.model,
    timeoutMs: options.timeoutMs,
    // Kept transcripts are finished conversations, however recently they were written.
    liveWindowMs: 0,
    reclaim: 'keep',
    transcripts: false,
    now: options.now,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  return { ...report, out, transcripts: kept.count };
}
