// JSONL source: one skill per line as a JSON object with at least name, description and body. Other keys are front matter;
// `path` names the skill's place in the dump and `files` ([{path, content}]) carries package files as text.
import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { parseJsonText } from '../../json-syntax';
import { frontMatterMaxBytes } from '../front-matter';
import { summarizeBytes } from '../package-files';
import { firstInvalidUtf8 } from '../text-bytes';
import { buildSkill, type BuildResult } from '../skill-md';
import type { ImportSettings, PackageFile, ValidationIssue } from '../types';
import { rejection, type OpenedSource, type SourceItem } from './source';

const notFrontMatter = new Set(['body', 'path', 'files']);

export async function openJsonlSource(
  file: string,
  limits: ImportSettings,
  signal: AbortSignal,
): Promise<OpenedSource> {
  const base = path.basename(file);
  const items: SourceItem[] = [];
  const usedPaths = new Set<string>();
  // Items keep where their line is, not its text: a 500 MB dump is read twice, never held.
  const handle = await fsp.open(file, 'r');
  const lines = readLines(file, limits.jsonlLineMaxBytes);
  try {
    await readItems();
  } catch (error) {
    await handle.close();
    throw error;
  }
  return { items, close: () => handle.close() };

  async function readItems(): Promise<void> {
    for await (const { lineNo, text, tooLong, badByte, offset, length } of lines) {
      signal.throwIfAborted();
      const where = `${base}:${lineNo}`;
      if (tooLong) {
        items.push(
          rejection(
            `line-${lineNo}`,
            where,
            'jsonl-line-too-large',
            `line ${lineNo} is longer than ${limits.jsonlLineMaxBytes} bytes`,
            lineNo,
          ),
        );
        continue;
      }
      if (badByte >= 0) {
        const message = `line ${lineNo} is not valid UTF-8 (bad byte at column ${badByte + 1})`;
        items.push(rejection(`line-${lineNo}`, where, 'jsonl-encoding', message, lineNo));
        continue;
      }
      if (text.trim() === '') continue;
      const json = parseJsonText(text);
      if (!json.ok) {
        const message = `line ${lineNo} is ${json.message}`;
        items.push(rejection(`line-${lineNo}`, where, 'jsonl-syntax', message, lineNo));
        continue;
      }
      const value = json.value;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        items.push(
          rejection(
            `line-${lineNo}`,
            where,
            'jsonl-not-object',
            `line ${lineNo} must be a JSON object with name, description and body`,
            lineNo,
          ),
        );
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
      const digest = createHash('sha256').update(text).digest('base64');
      items.push({
        type: 'candidate',
        relPath,
        file: where,
        digest,
        line: lineNo,
        load: async () => {
          const again = await readLineAt(handle, offset, length);
          const parsed = parseJsonText(again);
          if (!parsed.ok) throw new Error(`line ${lineNo} changed while it was imported`);
          const result = lineToSkill(parsed.value as Record<string, unknown>, relPath, base, lineNo, limits);
          if (result.ok) result.skill.sourceDigest = createHash('sha256').update(again).digest('base64');
          return result;
        },
      });
    }
  }
}

async function readLineAt(handle: fsp.FileHandle, offset: number, length: number): Promise<string> {
  const buf = Buffer.alloc(length);
  let n = 0;
  while (n < length) {
    const { bytesRead } = await handle.read(buf, n, length - n, offset + n);
    if (bytesRead === 0) break;
    n += bytesRead;
  }
  return buf.subarray(0, n).toString('utf8').replace(/\r$/, '');
}

function lineToSkill(
  obj: Record<string, unknown>,
  relPath: string,
  base: string,
  lineNo: number,
  limits: ImportSettings,
): BuildResult {
  const file = base;
  const fail = (rule: string, message: string): BuildResult => ({
    ok: false,
    issues: [{ severity: 'error', rule, message, file, line: lineNo }],
  });
  if (typeof obj.body !== 'string') return fail('jsonl-body-required', `line ${lineNo} has no "body" text`);
  const frontMatter = Object.fromEntries(Object.entries(obj).filter(([k]) => !notFrontMatter.has(k)));
  // Checked before turning it into YAML: the line may hold two megabytes of keys.
  if (JSON.stringify(frontMatter).length > frontMatterMaxBytes)
    return fail(
      'front-matter-too-large',
      `line ${lineNo}: the keys other than body, path and files take more than ${frontMatterMaxBytes} bytes`,
    );
  const files: PackageFile[] = [];
  const paths = new Set<string>(['SKILL.md']);
  if (obj.files !== undefined) {
    if (!Array.isArray(obj.files))
      return fail('jsonl-files-type', `line ${lineNo}: "files" must be a list of {path, content}`);
    for (const [i, f] of (obj.files as unknown[]).entries()) {
      const entry = f as { path?: unknown; content?: unknown };
      if (
        typeof entry?.path !== 'string' ||
        typeof entry.content !== 'string' ||
        !plainRelativePath(entry.path)
      ) {
        return fail(
          'jsonl-files-type',
          `line ${lineNo}: file ${i + 1} needs a plain relative "path" (no "", "." or ".." parts) and text "content"`,
        );
      }
      if (paths.has(entry.path))
        return fail(
          'jsonl-files-duplicate',
          `line ${lineNo}: file ${i + 1} has the path "${entry.path}", which ${entry.path === 'SKILL.md' ? 'the skill itself uses' : 'an earlier file has'}`,
        );
      paths.add(entry.path);
      files.push(
        summarizeBytes(entry.path, Buffer.from(entry.content, 'utf8'), limits.referenceTextMaxBytes),
      );
    }
  }
  const skillMd = `---\n${stringify(frontMatter)}---\n\n${obj.body}`;
  const result = buildSkill({
    bytes: Buffer.from(skillMd, 'utf8'),
    file,
    relPath,
    folderName: null,
    files,
    maxBytes: limits.skillMdMaxBytes,
  });
  // The SKILL.md text was built here, so the line that matters to the user is the JSONL line.
  const atLine = (issues: ValidationIssue[]) => issues.map((i) => ({ ...i, line: lineNo }));
  return result.ok
    ? { ok: true, skill: { ...result.skill, warnings: atLine(result.skill.warnings) } }
    : { ok: false, issues: atLine(result.issues) };
}

/** A path that names one file the same way on every system: relative, no empty, "." or ".." segments, no backslash. */
function plainRelativePath(p: string): boolean {
  return (
    !p.startsWith('/') &&
    !p.includes('\\') &&
    !p.includes('\0') &&
    p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..')
  );
}

/** Splits a file into lines without ever holding more than `cap` bytes of one line. */
async function* readLines(
  file: string,
  cap: number,
): AsyncGenerator<{
  lineNo: number;
  text: string;
  tooLong: boolean;
  badByte: number;
  offset: number;
  length: number;
}> {
  let parts: Buffer[] = [];
  let size = 0;
  let position = 0;
  let lineStart = 0;
  let tooLong = false;
  let lineNo = 1;
  const emit = () => {
    const bytes = tooLong ? Buffer.alloc(0) : Buffer.concat(parts);
    const badByte = firstInvalidUtf8(bytes);
    const out = {
      lineNo,
      text: badByte >= 0 ? '' : bytes.toString('utf8').replace(/\r$/, ''),
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
