/**
 * SHA-256, with node:crypto loaded on the first hash: loading it costs more than anything else
 * the extension does at activation (about 17 ms here), and activation hashes nothing.
 */
import type { Hash } from 'node:crypto';
import { lazy } from './lazy';

const crypto = lazy(() => require('node:crypto') as typeof import('node:crypto'));

/** A SHA-256 hash to feed with update() and finish with digest(). */
export function sha256Hash(): Hash {
  return crypto().createHash('sha256');
}
