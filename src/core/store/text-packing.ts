// How a skill's full text (and a pending conflict's incoming skill) is stored: compressed with zlib (deflate) where
// that makes it smaller, as plain TEXT otherwise. SQL reads it back through unpack_text(), a deterministic function
// every connection that opens a library registers (db.ts): the generated columns skills.full_text and skills.body
// and the full-text index's view go through it, so readers select plain text as before.
// The zlib format (not raw deflate) costs 6 bytes a row and gives a checksum (a damaged row fails to read instead of
// reading wrong) and a first byte (0x78) that says which format a BLOB holds; the sqlite3 shell reads one with
// CAST(sqlar_uncompress(full_text_stored, <a size at least the text's>) AS TEXT).
import { promisify } from 'node:util';
import { deflate, deflateSync, inflateSync } from 'node:zlib';
import type Database from 'better-sqlite3';

/** Measured on the 10k synthetic library: 0.375 of the text, ~15 % more CPU than level 1 (0.397), ~25 % less than 6. */
const level = 4;
/** Below this many bytes a text stays plain: a zlib stream would save a few bytes at best. */
const minBytes = 128;
/** First byte of a zlib stream with a 32 KiB window, the only format written so far. */
const zlibHeader = 0x78;

/**
 * The texts packed last, with what they were packed from: the index triggers read a skill's text back right after
 * it is written, and comparing a few KB costs far less than inflating them.
 */
const recent: { packed: Buffer; text: string }[] = [];
const recentKept = 4;
/**
 * Every text packed while `keepPackedTexts` runs, by the zlib stream's checksum (its last 4 bytes, the Adler-32 of
 * the text): a batch of skills is indexed at its end (deferred-indexing.ts), when the last few are no longer recent.
 */
let kept: Map<number, { packed: Buffer; text: string }[]> | null = null;
let inflatedCount = 0;
let deflatedCount = 0;
/** String.prototype.isWellFormed: in Node 20 (V8 11.3), not yet in the ES2023 typings. */
type WellFormedCheck = string & { isWellFormed(): boolean };

/** The value to store for a text: a zlib BLOB where it is smaller than the text's UTF-8 bytes, else the text. */
export function packText(text: string): string | Buffer {
  const bytes = packable(text);
  if (!bytes) return text;
  deflatedCount++;
  return chosen(text, bytes.length, deflateSync(bytes, { level }));
}

function packable(text: string): Buffer | null {
  if (text.length < minBytes / 3) return null;
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length < minBytes ? null : bytes;
}

function chosen(text: string, byteLength: number, packed: Buffer): string | Buffer {
  if (packed.length >= byteLength) return text;
  // A text with an unpaired surrogate reads back with U+FFFD in its place, as TEXT storage gives it: not kept.
  if (!(text as WellFormedCheck).isWellFormed()) return packed;
  if (kept) {
    const key = checksumOf(packed);
    const same = kept.get(key);
    if (same) same.push({ packed, text });
    else kept.set(key, [{ packed, text }]);
  } else {
    recent.unshift({ packed, text });
    recent.length = Math.min(recent.length, recentKept);
  }
  return packed;
}

const checksumOf = (packed: Buffer) => packed.readUInt32BE(packed.length - 4);

/**
 * Runs `write` with every text it packs kept until it returns, so the SQL that reads them back meanwhile (the index
 * written at a batch's end) gets them without inflating them again. The caller holds the texts anyway (the batch).
 */
export function keepPackedTexts<T>(write: () => T): T {
  if (kept) return write();
  kept = new Map();
  try {
    return write();
  } finally {
    kept = null;
  }
}

/** How many stored texts this thread inflated so far (reads the kept or recent texts could not answer). */
export function inflatedTexts(): number {
  return inflatedCount;
}

/** How many texts this thread deflated so far, or had the thread pool deflate (not those packElsewhere packed). */
export function deflatedTexts(): number {
  return deflatedCount;
}

const deflateInPool = promisify(deflate);
const packedAhead = new WeakMap<object, { text: string; byteLength: number; packed: Buffer }>();

/** A text deflated where it was built (the JSONL load worker), sent to the writing thread with the text. */
export interface PackedElsewhere {
  /** The text's UTF-8 length. */
  byteLength: number;
  /** The zlib stream, in a buffer of its own (transferable without copying). */
  packed: Uint8Array<ArrayBuffer>;
}

/**
 * Deflates `text` on this thread for a thread that writes it (null when it stays plain whatever its stream's size):
 * the load worker sends the result with the skill, so the writing thread neither deflates it nor waits for the pool.
 */
export function packElsewhere(text: string): PackedElsewhere | null {
  const bytes = packable(text);
  if (!bytes) return null;
  const out = deflateSync(bytes, { level });
  // A copy the size of the stream: the result is a view of zlib's 16 KiB output chunk.
  return { byteLength: bytes.length, packed: new Uint8Array(out) };
}

/** Takes what packElsewhere gave for `text` as the packed form of `owner` (the skill it came with): see packFor. */
export function adoptPacked(owner: object, text: string, { byteLength, packed }: PackedElsewhere): void {
  packedAhead.set(owner, {
    text,
    byteLength,
    packed: Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength),
  });
}

/**
 * Deflates `text` in libuv's thread pool, off the thread that writes, for `owner` (the skill about to be written):
 * the importer calls it while it loads a batch, and packFor() then finds the work done (or nothing to do, when the
 * load worker packed it already).
 */
export async function packAhead(owner: object, text: string): Promise<void> {
  if (packedAhead.get(owner)?.text === text) return;
  const bytes = packable(text);
  if (!bytes) return;
  deflatedCount++;
  packedAhead.set(owner, { text, byteLength: bytes.length, packed: await deflateInPool(bytes, { level }) });
}

/** packText(text), with what packAhead did for `owner` when it packed this same text. */
export function packFor(owner: object, text: string): string | Buffer {
  const ahead = packedAhead.get(owner);
  if (!ahead || ahead.text !== text) return packText(text);
  packedAhead.delete(owner);
  return chosen(text, ahead.byteLength, ahead.packed);
}

/** The text a stored value holds (what packText was given); NULL stays NULL. */
export function unpackText(value: unknown): string | null {
  if (value === null || typeof value === 'string') return value;
  if (!Buffer.isBuffer(value))
    throw new TypeError(`unpack_text() takes a TEXT or a BLOB, not ${typeof value}`);
  if (value[0] !== zlibHeader)
    throw new Error(
      'A skill text is stored in a format this version of Skill Curator cannot read (written by a newer version?)',
    );
  if (kept && value.length >= 4)
    for (const k of kept.get(checksumOf(value)) ?? []) if (k.packed.equals(value)) return k.text;
  for (const r of recent) if (r.packed.equals(value)) return r.text;
  inflatedCount++;
  return inflateSync(value).toString('utf8');
}

/**
 * Registers unpack_text(x) and pack_text(x) (a TEXT packed, anything else as it is) on a connection: the schema's generated columns, view and triggers call
 * unpack_text, so a connection without it cannot read skill texts ("no such function"), nor write skills.
 */
export function registerTextFunctions(db: Database.Database): void {
  db.function('unpack_text', { deterministic: true }, (value: unknown) => unpackText(value));
  db.function('pack_text', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? packText(value) : value,
  );
}
