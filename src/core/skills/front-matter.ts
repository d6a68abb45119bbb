// Splits SKILL.md text into YAML front matter and markdown body, and parses the front matter strictly (one mapping,
// unique keys) within fixed bounds, so that no SKILL.md can hold the importing thread for more than milliseconds.
import type { Document } from 'yaml';
import type { ValidationIssue } from './types';
import { yamlModule } from './yaml-module';

export interface FrontMatter {
  data: Record<string, unknown>;
  /** 1-based line in SKILL.md of each top-level key. */
  keyLines: Record<string, number>;
  body: string;
}

export type FrontMatterResult = { ok: true; value: FrontMatter } | { ok: false; issues: ValidationIssue[] };

/**
 * Most front matter the parser reads, as YAML text and again as the JSON it expands to (aliases included). Real skills
 * use under 2 KB; at this size the parse takes milliseconds, where a megabyte of keys took minutes.
 */
export const frontMatterMaxBytes = 32 * 1024;
const maxAliasCount = 100;

const fence = /^---[ \t]*$/;
/** One line and its end, whichever convention wrote it (LF, CRLF or a lone CR). */
const lineRe = /([^\r\n]*)(\r\n|\r|\n|$)/y;

export function splitFrontMatter(text: string, file: string): FrontMatterResult {
  const lines: string[] = [];
  let yamlStart = 0;
  let bodyStart = -1;
  lineRe.lastIndex = 0;
  for (let m = lineRe.exec(text); m; m = lineRe.exec(text)) {
    const line = m[1]!;
    if (lines.length === 0) {
      if (!fence.test(line))
        return fail(
          file,
          'front-matter-missing',
          'SKILL.md must start with a line "---" that opens the YAML front matter',
          1,
        );
      yamlStart = lineRe.lastIndex;
    } else if (fence.test(line)) {
      bodyStart = lineRe.lastIndex;
      break;
    }
    // Each UTF-16 unit is at least one UTF-8 byte: past the cap in units is past it in bytes; stop looking.
    if (lineRe.lastIndex - yamlStart > frontMatterMaxBytes + 2) return tooLarge(file, 'is longer than');
    lines.push(line);
    if (m[2] === '') break;
  }
  if (bodyStart < 0)
    return fail(
      file,
      'front-matter-unclosed',
      'the front matter opened on line 1 has no closing "---" line',
      1,
    );
  // The YAML reads with plain line ends (a CR left on the last line breaks quoting and names); the body keeps its bytes.
  const yamlText = lines.slice(1).join('\n');
  if (Buffer.byteLength(yamlText, 'utf8') > frontMatterMaxBytes) return tooLarge(file, 'is longer than');
  const body = text.slice(bodyStart).replace(/^(\r\n|\r|\n)/, '');
  const parsed = parseYamlMapping(yamlText, file, 1);
  if (!parsed.ok) return parsed;
  return { ok: true, value: { ...parsed.value, body } };
}

/** Parses YAML that must be one mapping; `lineOffset` is the number of lines before the YAML in its file. */
function parseYamlMapping(
  yamlText: string,
  file: string,
  lineOffset: number,
): { ok: true; value: Omit<FrontMatter, 'body'> } | { ok: false; issues: ValidationIssue[] } {
  const { LineCounter, isMap, isScalar, parseDocument } = yamlModule();
  const lineCounter = new LineCounter();
  // yaml's own uniqueKeys check compares every key with every other one; duplicateKey() does it in one pass.
  const doc = parseDocument(yamlText, { uniqueKeys: false, lineCounter, prettyErrors: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      issues: doc.errors.map((e) => ({
        severity: 'error' as const,
        rule: e.code === 'DUPLICATE_KEY' ? 'front-matter-duplicate-key' : 'front-matter-yaml',
        message: `front matter is not valid YAML: ${e.message.split('\n')[0]}`,
        file,
        ...(e.linePos ? { line: e.linePos[0].line + lineOffset } : {}),
      })),
    };
  }
  const dup = duplicateKey(doc);
  if (dup) {
    return fail(
      file,
      'front-matter-duplicate-key',
      'front matter is not valid YAML: Map keys must be unique',
      dup.offset === undefined ? undefined : lineCounter.linePos(dup.offset).line + lineOffset,
    );
  }
  const contents = doc.contents;
  if (!isMap(contents)) {
    const what = contents === null ? 'empty' : isScalar(contents) ? 'a single value' : 'a list';
    return fail(
      file,
      'front-matter-not-mapping',
      `front matter must be a mapping of keys to values, but it is ${what}`,
      2,
    );
  }
  const keyLines: Record<string, number> = {};
  for (const pair of contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const offset = isScalar(pair.key) && pair.key.range ? pair.key.range[0] : undefined;
    if (offset !== undefined) keyLines[key] = lineCounter.linePos(offset).line + lineOffset;
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount });
  } catch (error) {
    // yaml's own words here quote alias names from the file; say what is wrong without them.
    const why = /alias count/i.test((error as Error).message)
      ? `it uses aliases more than ${maxAliasCount} times`
      : /alias/i.test((error as Error).message)
        ? 'an alias (*name) has no anchor (&name) before it'
        : 'its structure cannot be turned into values';
    return fail(file, 'front-matter-yaml', `front matter could not be read: ${why}`, 2);
  }
  // Aliases share one object in `data`, but the library stores (and every reader sees) them expanded.
  if (expandedSizeOver(data, frontMatterMaxBytes))
    return tooLarge(file, 'expands (aliases included) to more than');
  return { ok: true, value: { data: data as Record<string, unknown>, keyLines } };
}

/** The first key that repeats in its mapping (scalar keys compared by value, as yaml's uniqueKeys does). */
function duplicateKey(doc: Document): { offset: number | undefined } | null {
  const { isScalar, visit } = yamlModule();
  let found: { offset: number | undefined } | null = null;
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (seen.has(key)) {
          found = { offset: isScalar(pair.key) ? pair.key.range?.[0] : undefined };
          return visit.BREAK;
        }
        seen.add(key);
      }
      return undefined;
    },
  });
  return found;
}

/** Whether `value` written as JSON would pass `cap` bytes (roughly: text lengths plus punctuation); stops at the cap. */
export function expandedSizeOver(value: unknown, cap: number): boolean {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    size += 2;
    if (typeof v === 'string') size += v.length;
    else if (Array.isArray(v)) stack.push(...(v as unknown[]));
    else if (v instanceof Map) {
      for (const [k, x] of v) {
        size += String(k).length;
        stack.push(x);
      }
    } else if (v !== null && typeof v === 'object' && !(v instanceof Date)) {
      for (const [k, x] of Object.entries(v)) {
        size += k.length;
        stack.push(x);
      }
    } else size += String(v).length;
    if (size > cap) return true;
  }
  return false;
}

function tooLarge(file: string, what: string): { ok: false; issues: ValidationIssue[] } {
  return fail(
    file,
    'front-matter-too-large',
    `the front matter ${what} ${frontMatterMaxBytes} bytes; keep long text in the body`,
    2,
  );
}

function fail(
  file: string,
  rule: string,
  message: string,
  line?: number,
): { ok: false; issues: ValidationIssue[] } {
  return { ok: false, issues: [{ severity: 'error', rule, message, file, ...(line ? { line } : {}) }] };
}
