// A shallow clone downloads the repository's whole pack before any file in it can be checked, and isomorphic-git holds
// the pack, and each object inflated, in memory: one 150 MB file that the import then refused drove the process to
// about 660 MB. This guard reads the upload-pack response as it streams in, object header by object header, and stops
// the fetch at the first object larger than the import takes (or once the download passes its cap), before the
// object's bytes arrive. Objects are inflated only to find where the next one starts; their bytes are not kept.
import { Inflate } from 'pako';

export interface PackCaps {
  /** The largest file the import takes (packageFileMaxBytes). */
  objectMaxBytes: number;
  /** The most the whole download may hold. */
  downloadMaxBytes: number;
}

export type PackRefusal =
  { kind: 'object'; bytes: number; downloaded: number } | { kind: 'download'; downloaded: number };

/** What pako's Inflate has and its types leave out: whether the stream ended, and the input it did not read. */
type ReadingInflate = Inflate & { ended: boolean; strm: { avail_in: number } };

const OFS_DELTA = 6;
const REF_DELTA = 7;

export interface PackGuard {
  /** Takes the response's bytes in order; returns a refusal as soon as one is due, else null. */
  feed(chunk: Uint8Array): PackRefusal | null;
  /** Objects read to their end so far; null once the response read in a way the guard does not know. */
  objectsRead(): number | null;
}

export function packGuard(caps: PackCaps): PackGuard {
  let downloaded = 0;
  // pkt-line framing: the 4 hex digits of the next line's length, then its payload.
  let lengthDigits = '';
  let payloadLeft = 0;
  let payloadStart = false;
  let inPackBand = false;
  // Once the framing or the pack reads in a way this guard does not know, it stops looking (the download cap stays).
  let lost = false;
  const pack = packReader(caps);

  const feed = (chunk: Uint8Array): PackRefusal | null => {
    downloaded += chunk.length;
    if (downloaded > caps.downloadMaxBytes) return { kind: 'download', downloaded };
    if (lost) return null;
    let i = 0;
    while (i < chunk.length) {
      if (payloadLeft === 0) {
        lengthDigits += String.fromCharCode(chunk[i]!);
        i += 1;
        if (lengthDigits.length < 4) continue;
        const length = /^[0-9a-f]{4}$/i.test(lengthDigits) ? parseInt(lengthDigits, 16) : -1;
        lengthDigits = '';
        if (length < 0) {
          lost = true;
          return null;
        }
        // 0000 flush, 0001 delimiter, 0002 response end: no payload.
        if (length > 4) {
          payloadLeft = length - 4;
          payloadStart = true;
        }
        continue;
      }
      if (payloadStart) {
        // Side-band: 1 carries the pack, 2 progress, 3 an error; negotiation lines (NAK, shallow …) are text.
        inPackBand = chunk[i] === 1;
        payloadStart = false;
        payloadLeft -= 1;
        i += 1;
        continue;
      }
      const end = Math.min(chunk.length, i + payloadLeft);
      if (inPackBand) {
        const verdict = pack(chunk.subarray(i, end));
        if (verdict === 'lost') lost = true;
        else if (verdict !== null) return { kind: 'object', bytes: verdict, downloaded };
        if (lost) return null;
      }
      payloadLeft -= end - i;
      i = end;
    }
    return null;
  };
  return { feed, objectsRead: () => (lost ? null : pack.objectsRead()) };
}

/** Reads pack bytes in order; returns an object's size once it is over the cap, 'lost' when the pack reads oddly. */
function packReader(caps: PackCaps): {
  (bytes: Uint8Array): number | 'lost' | null;
  objectsRead(): number;
} {
  let read = 0;
  let header: number[] = []; // the pack's 12-byte header, then each object's header bytes
  let objectsLeft = -1;
  let inflater: ReadingInflate | null = null;
  let deltaHead: number[] | null = null; // the first inflated bytes of a delta: base size, then result size
  let oversize: number | null = null;

  const startObject = (): 'lost' | 'more' | 'ready' => {
    // type and size: 3 + 4 bits, then 7 bits a byte while the top bit is set
    let at = 0;
    let byte = header[at++]!;
    const type = (byte >> 4) & 7;
    let size = byte & 15;
    let shift = 4;
    while (byte & 0x80) {
      if (at >= header.length) return 'more';
      byte = header[at++]!;
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    if (type === 0 || type === 5) return 'lost';
    if (type === OFS_DELTA) {
      do {
        if (at >= header.length) return 'more';
      } while (header[at++]! & 0x80);
    } else if (type === REF_DELTA) {
      if (header.length < at + 20) return 'more';
      at += 20;
    }
    if (at !== header.length) return 'lost';
    if (size > caps.objectMaxBytes) oversize = size;
    deltaHead = type === OFS_DELTA || type === REF_DELTA ? [] : null;
    inflater = new Inflate() as ReadingInflate;
    inflater.onData = (out: Uint8Array) => {
      if (!deltaHead || deltaHead.length >= 20) return;
      deltaHead.push(...out.subarray(0, 20 - deltaHead.length));
      const result = deltaResultSize(deltaHead);
      if (result !== null && result > caps.objectMaxBytes) oversize = result;
    };
    return 'ready';
  };

  const reader = (bytes: Uint8Array): number | 'lost' | null => {
    let i = 0;
    while (i < bytes.length) {
      if (objectsLeft < 0) {
        header.push(bytes[i++]!);
        if (header.length < 12) continue;
        if (String.fromCharCode(...header.slice(0, 4)) !== 'PACK') return 'lost';
        objectsLeft = ((header[8]! << 24) >>> 0) + (header[9]! << 16) + (header[10]! << 8) + header[11]!;
        header = [];
        continue;
      }
      if (objectsLeft === 0) return null; // the trailing checksum
      if (!inflater) {
        header.push(bytes[i++]!);
        if (header.length > 64) return 'lost';
        const state = startObject();
        if (state === 'lost') return 'lost';
        if (oversize !== null) return oversize;
        if (state === 'ready') header = [];
        continue;
      }
      const current = inflater;
      current.push(bytes.subarray(i), false);
      if (oversize !== null) return oversize;
      if (current.err) return 'lost';
      if (!current.ended) return null;
      i = bytes.length - current.strm.avail_in;
      inflater = null;
      objectsLeft -= 1;
      read += 1;
    }
    return null;
  };
  return Object.assign(reader, { objectsRead: () => read });
}

/** A delta starts with two sizes (7 bits a byte): its base's and its result's. Null until both have arrived. */
function deltaResultSize(head: number[]): number | null {
  let at = 0;
  for (let field = 0; field < 2; field++) {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (at >= head.length) return null;
      const byte = head[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(byte & 0x80)) break;
    }
    if (field === 1) return value;
  }
  return null;
}
