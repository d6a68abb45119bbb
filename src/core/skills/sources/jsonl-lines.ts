// Reading a JSONL dump by lines: a stream split at newlines that never holds more than a cap of one line, and one line
// read again by its place. Lines come back as bytes without their line end, so a digest is taken over the bytes read.
import { createReadStream, readSync, type promises as fsp } from 'node:fs';
import { firstInvalidUtf8 } from '../text-bytes';

export interface RawLine {
  lineNo: number;
  /** The line without its line end (LF, or CRLF); empty when it is too long or not UTF-8. */
  bytes: Buffer;
  tooLong: boolean;
  badByte: number;
  offset: number;
  length: number;
}

/** Splits a file into lines without ever holding more than `cap` bytes of one line. */
export async function* readLines(file: string, cap: number): AsyncGenerator<RawLine> {
  let parts: Buffer[] = [];
  let size = 0;
  let position = 0;
  let lineStart = 0;
  let tooLong = false;
  let lineNo = 1;
  const emit = (): RawLine => {
    // A line inside one chunk is a view of it, not a copy.
    const whole = tooLong ? Buffer.alloc(0) : parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    const badByte = firstInvalidUtf8(whole);
    const out = {
      lineNo,
      bytes: badByte >= 0 ? Buffer.alloc(0) : withoutCr(whole),
      tooLong,
      badByte,
      offset: lineStart,
      length: position - lineStart,
    };
    parts = [];
    size = 0;
    tooLong = false;
    lineNo++;
    return out;
  };
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, nl < 0 ? chunk.length : nl);
      position += piece.length;
      if (!tooLong) {
        size += piece.length;
        if (size > cap) tooLong = true;
        else parts.push(piece);
      }
      if (nl < 0) break;
      yield emit();
      position += 1;
      lineStart = position;
      start = nl + 1;
    }
  }
  if (size > 0 || tooLong) yield emit();
}

/** The bytes of one line, read again at the place the first reading found it. */
export async function readLineAt(handle: fsp.FileHandle, offset: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let n = 0;
  while (n < length) {
    const { bytesRead } = await handle.read(buf, n, length - n, offset + n);
    if (bytesRead === 0) break;
    n += bytesRead;
  }
  return withoutCr(buf.subarray(0, n));
}

/** readLineAt for a thread that reads by descriptor (the load worker reads the dump's open file). */
export function readLineAtSync(fd: number, offset: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let n = 0;
  while (n < length) {
    const bytesRead = readSync(fd, buf, n, length - n, offset + n);
    if (bytesRead === 0) break;
    n += bytesRead;
  }
  return withoutCr(buf.subarray(0, n));
}

function withoutCr(bytes: Buffer): Buffer {
  return bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
}
