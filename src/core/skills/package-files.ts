// Describes the files of a skill package (kind, size, sha256, text or not, reference text) and hashes a whole package.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { firstInvalidUtf8, looksBinary } from './text-bytes';
import type { PackageFile, PackageFileKind } from './types';

export function fileKind(pathInSkill: string): PackageFileKind {
  const top = pathInSkill.split('/')[0];
  if (top === 'scripts') return 'script';
  if (top === 'references') return 'reference';
  if (top === 'assets') return 'asset';
  return 'other';
}

const probeBytes = 8192;

export class FileTooLargeError extends Error {}

/**
 * Streams one file once: hashes it, probes its start for text, and keeps up to `textCap` bytes of a reference's text.
 * Stops with FileTooLargeError as soon as more than `maxBytes` arrive, whatever the file claimed to be.
 */
export async function summarizeFile(
  pathInSkill: string,
  open: () => Promise<Readable> | Readable,
  limits: { maxBytes: number; textCap: number },
): Promise<PackageFile> {
  const kind = fileKind(pathInSkill);
  const hash = createHash('sha256');
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let size = 0;
  const keepCap = kind === 'reference' ? limits.textCap : probeBytes;
  const stream = await open();
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limits.maxBytes)
        throw new FileTooLargeError(`${pathInSkill} is larger than ${limits.maxBytes} bytes`);
      hash.update(chunk);
      if (keptBytes < keepCap) {
        const part = chunk.subarray(0, keepCap - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
    }
  } finally {
    stream.destroy();
  }
  const head = Buffer.concat(kept);
  const isText = isTextStart(head, size <= head.length);
  return {
    path: pathInSkill,
    kind,
    size,
    sha256: hash.digest('hex'),
    isText,
    textContent: kind === 'reference' && isText ? head.toString('utf8') : null,
  };
}

export function summarizeBytes(pathInSkill: string, bytes: Uint8Array, textCap: number): PackageFile {
  const kind = fileKind(pathInSkill);
  const head = Buffer.from(
    bytes.buffer,
    bytes.byteOffset,
    Math.min(bytes.length, kind === 'reference' ? textCap : probeBytes),
  );
  const isText = isTextStart(head, head.length === bytes.length);
  return {
    path: pathInSkill,
    kind,
    size: bytes.length,
    sha256: sha256Hex(bytes),
    isText,
    textContent: kind === 'reference' && isText ? head.toString('utf8') : null,
  };
}

/** Text when there is no NUL and the bytes are UTF-8 (a cut at the end may split one character: that is allowed). */
function isTextStart(head: Buffer, complete: boolean): boolean {
  if (looksBinary(head, head.length)) return false;
  const bad = firstInvalidUtf8(head);
  return bad < 0 || (!complete && bad >= head.length - 3);
}

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** sha256 over SKILL.md and every (path, sha256) of the package, in path order: equal packages get equal hashes. */
export function contentHash(
  skillMd: Uint8Array | string,
  files: readonly Pick<PackageFile, 'path' | 'sha256'>[],
): string {
  const h = createHash('sha256');
  h.update('SKILL.md\0').update(sha256Hex(skillMd)).update('\n');
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    h.update(f.path).update('\0').update(f.sha256).update('\n');
  }
  return h.digest('hex');
}
