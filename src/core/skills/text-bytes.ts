// Byte-level checks on files before they are read as text: binary detection, strict UTF-8, line of an offset.
import { isUtf8 } from 'node:buffer';

/** True when the bytes look binary: a NUL byte in the first `probe` bytes (what git and grep use). */
export function looksBinary(bytes: Uint8Array, probe = 8192): boolean {
  const end = Math.min(bytes.length, probe);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Offset of the first byte that is not part of a well-formed UTF-8 sequence, or -1 when all of it is valid. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  // Nearly every text is valid: the native check answers that at memory speed; only a bad one is walked here.
  if (isUtf8(bytes)) return -1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** 1-based line number of a byte offset. */
export function lineOfOffset(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Decodes strictly; callers check `firstInvalidUtf8` first so this only throws on a bug. */
export function decodeUtf8(bytes: Uint8Array): string {
  return strictUtf8.decode(bytes);
}
