// JSONL source: one skill per line as a JSON object with at least name, description and body. Other keys are front matter;
// `path` names the skill's place in the dump and `files` ([{path, content}]) carries package files as text.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { parseJsonText } from '../../json-syntax';
import type { BuildResult } from '../skill-md';
import type { ImportSettings } from '../types';
import { lineDigest as digestOf, skillOfLineBytes, type LineAt } from './jsonl-skill';
import { readLineAt, readLines } from './jsonl-lines';
import { WorkerLineLoader } from './jsonl-loader';
import { rejection, type OpenedSource, type SkillCandidate, type SourceItem } from './source';

/** What every line of one dump shares: the open file and the settings to build its skills with. */
interface Dump {
  handle: fsp.FileHandle;
  base: string;
  limits: ImportSettings;
  /** Builds skills in a worker thread (large dumps). */
  loader: WorkerLineLoader | null;
}

/** Builds one line's skill on this thread. */
async function loadHere(dump: Dump, at: LineAt): Promise<BuildResult> {
  const bytes = await readLineAt(dump.handle, at.offset, at.length);
  return skillOfLineBytes(bytes, at, dump.base, dump.limits);
}

/**
 * A line that holds a skill. Lines keep where they are in the file, not their text (a 500 MB dump is read twice, never
 * held), and share the dump's fields rather than each keeping a closure: a 68k dump has 68k of them.
 */
class JsonlLine implements SkillCandidate {
  readonly type = 'candidate';
  constructor(
    private readonly dump: Dump,
    readonly relPath: string,
    readonly digest: string,
    readonly line: number,
    readonly offset: number,
    readonly length: number,
  ) {}

  get file(): string {
    return `${this.dump.base}:${this.line}`;
  }

  load(): Promise<BuildResult> {
    return this.dump.loader ? this.dump.loader.load(this) : loadHere(this.dump, this);
  }
}

export interface JsonlSourceOptions {
  /** The place and source digest of each skill the library holds from this dump (a re-import's lines to recognise). */
  knownLines?: Iterable<[relPath: string, digest: string]>;
  /** Dumps of this many bytes or more build their skills in a worker thread; default 4 MiB. */
  workerFromBytes?: number;
}

const workerFromBytes = 4 * 1024 * 1024;

export async function openJsonlSource(
  file: string,
  limits: ImportSettings,
  signal: AbortSignal,
  options: JsonlSourceOptions = {},
): Promise<OpenedSource> {
  const base = path.basename(file);
  const items: SourceItem[] = [];
  const usedPaths = new Set<string>();
  const placeOf = placesByDigest(options.knownLines ?? []);
  const dump: Dump = { handle: await fsp.open(file, 'r'), base, limits, loader: null };
  const close = async () => {
    await dump.loader?.close();
    await dump.handle.close();
  };
  try {
    if ((await dump.handle.stat()).size >= (options.workerFromBytes ?? workerFromBytes))
      dump.loader = new WorkerLineLoader({ fd: dump.handle.fd, base, limits }, (at) => loadHere(dump, at));
    await readItems();
    // Listed: the places and digests seen need not stay (readItems's scope lives on with `close`).
    usedPaths.clear();
    placeOf.clear();
  } catch (error) {
    await close();
    throw error;
  }
  return { items, close, workerLoads: dump.loader?.threaded ? 4096 : undefined };

  async function readItems(): Promise<void> {
    for await (const { lineNo, bytes, tooLong, badByte, offset, length } of readLines(
      file,
      limits.jsonlLineMaxBytes,
    )) {
      signal.throwIfAborted();
      const where = `${base}:${lineNo}`;
      // The issue names the dump and the line apart (as a skill's own issues do), so a place reads "dump.jsonl:11".
      const reject = (rule: string, message: string) =>
        items.push({
          ...rejection(`line-${lineNo}`, where, rule, message),
          issues: [{ severity: 'error', rule, message, file: base, line: lineNo }],
        });
      if (tooLong) {
        reject('jsonl-line-too-large', `line ${lineNo} is longer than ${limits.jsonlLineMaxBytes} bytes`);
        continue;
      }
      if (badByte >= 0) {
        reject('jsonl-encoding', `line ${lineNo} is not valid UTF-8 (bad byte at column ${badByte + 1})`);
        continue;
      }
      const digest = digestOf(bytes);
      // The same bytes as a stored line: its place is the stored one, unless an earlier line took it (then read it).
      const known = placeOf.get(digest);
      if (known !== undefined && !usedPaths.has(known)) {
        usedPaths.add(known);
        items.push(new JsonlLine(dump, known, digest, lineNo, offset, length));
        continue;
      }
      const text = bytes.toString('utf8');
      if (text.trim() === '') continue;
      const json = parseJsonText(text);
      if (!json.ok) {
        reject('jsonl-syntax', `line ${lineNo} is ${json.message}`);
        continue;
      }
      const value = json.value;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        reject('jsonl-not-object', `line ${lineNo} must be a JSON object with name, description and body`);
        continue;
      }
      const obj = value as Record<string, unknown>;
      let relPath =
        typeof obj.path === 'string' && obj.path !== ''
          ? obj.path
          : typeof obj.name === 'string' && obj.name !== ''
            ? obj.name
            : `line-${lineNo}`;
      if (usedPaths.has(relPath)) relPath = `${relPath}#${lineNo}`;
      usedPaths.add(relPath);
      items.push(new JsonlLine(dump, relPath, digest, lineNo, offset, length));
    }
  }
}

/**
 * Stored places by digest, for the places a line's own keys name (its "path" or "name"): a place with "#<line>" in it
 * depended on where the line was, so such a line is read to find its place again.
 */
function placesByDigest(known: Iterable<[string, string]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [relPath, digest] of known) if (!relPath.includes('#')) out.set(digest, relPath);
  return out;
}
