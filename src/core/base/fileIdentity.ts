/**
 * File identity for per-file notes: `device:inode` read with bigint precision (inode numbers
 * exceed 2^53 on some file systems), plus a content fingerprint so a note can be re-found when
 * the inode changes (git checkout, clone, editors that save by rename). device:inode is this
 * machine's way to follow a file; it is kept in the store's local index, never in a committed file.
 */
import * as fs from 'node:fs';
import { sha256Hash } from './lazyCrypto';
import { openStoreFile } from './readText';

export interface FileIdentity {
  /** `device:inode`, the seed's file_id: local to this machine. */
  id: string;
  size: number;
  /** `sha256:<hex>` of the content. */
  fingerprint: string;
}

export function fileIdOf(stat: fs.BigIntStats): string {
  return `${stat.dev}:${stat.ino}`;
}

/** One read buffer for all fingerprints: allocating 1 MiB per call showed up as GC in profiles. */
let chunk: Buffer | undefined;

/** sha256 of a file's content, streamed in chunks so large files do not load whole. */
export function fingerprintFile(file: string): string {
  const hash = sha256Hash();
  const fd = openStoreFile(file);
  try {
    const buffer = (chunk ??= Buffer.allocUnsafe(1 << 20));
    let read: number;
    while ((read = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0) hash.update(buffer.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return `sha256:${hash.digest('hex')}`;
}

/** Identity of an existing regular file, or undefined when it is missing or not a file. */
export function identifyFile(file: string, withFingerprint = true): FileIdentity | undefined {
  let stat: fs.BigIntStats;
  try {
    stat = fs.statSync(file, { bigint: true });
  } catch {
    return undefined;
  }
  if (!stat.isFile()) return undefined;
  const id = fileIdOf(stat);
  return {
    id,
    size: Number(stat.size),
    fingerprint: withFingerprint ? fingerprintFile(file) : '',
  };
}

/** bigint stat of a regular file (inode numbers can exceed 2^53), or undefined. */
export function statRegularFile(file: string): fs.BigIntStats | undefined {
  const stat = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return stat?.isFile() ? stat : undefined;
}
