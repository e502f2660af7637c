/**
 * What Lore takes from node:crypto (SHA-256 hashes, random ids), loaded on first use: loading it
 * costs more than anything else the extension does at activation (about 17 ms here), and
 * activation neither hashes nor makes ids.
 */
import type { Hash } from 'node:crypto';
import { lazy } from './lazy';

const crypto = lazy(() => require('node:crypto') as typeof import('node:crypto'));

/** A random UUID (node:crypto's), loaded as lazily. */
export function randomId(): string {
  return crypto().randomUUID();
}

/** `size` random bytes (node:crypto's), loaded as lazily. */
export function randomBytes(size: number): Buffer {
  return crypto().randomBytes(size);
}

/** A SHA-256 hash to feed with update() and finish with digest(). */
export function sha256Hash(): Hash {
  return crypto().createHash('sha256');
}

/**
 * The SHA-256 digest of data at hand (a string as UTF-8) in one call: without a Hash object, about
 * twice as fast for the short texts of item ids and index documents.
 */
export function sha256Digest(data: string | Buffer): Buffer;
export function sha256Digest(data: string | Buffer, encoding: 'base64url' | 'hex'): string;
export function sha256Digest(data: string | Buffer, encoding: 'buffer' | 'base64url' | 'hex' = 'buffer'): Buffer | string {
  return crypto().hash('sha256', data, encoding);
}
