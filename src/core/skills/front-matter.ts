// Splits SKILL.md text into YAML front matter and markdown body, and parses the front matter strictly (one mapping, unique keys).
import { LineCounter, isMap, isScalar, parseDocument } from 'yaml';
import type { ValidationIssue } from './types';

export interface FrontMatter {
  data: Record<string, unknown>;
  /** 1-based line in SKILL.md of each top-level key. */
  keyLines: Record<string, number>;
  body: string;
}

export type FrontMatterResult = { ok: true; value: FrontMatter } | { ok: false; issues: ValidationIssue[] };

const fence = /^---[ \t]*$/;

export function splitFrontMatter(text: string, file: string): FrontMatterResult {
  const lines = text.split('\n');
  const at = (i: number) => (lines[i] ?? '').replace(/\r$/, '');
  if (!fence.test(at(0))) {
    return fail(
      file,
      'front-matter-missing',
      'SKILL.md must start with a line "---" that opens the YAML front matter',
      1,
    );
  }
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (fence.test(at(i))) {
      close = i;
      break;
    }
  }
  if (close < 0)
    return fail(
      file,
      'front-matter-unclosed',
      'the front matter opened on line 1 has no closing "---" line',
      1,
    );
  const yamlText = lines.slice(1, close).join('\n');
  const body = lines
    .slice(close + 1)
    .join('\n')
    .replace(/^\r?\n/, '');
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
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { uniqueKeys: true, lineCounter, prettyErrors: true });
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
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return fail(file, 'front-matter-yaml', `front matter could not be read: ${(error as Error).message}`, 2);
  }
  return { ok: true, value: { data: data as Record<string, unknown>, keyLines } };
}

function fail(
  file: string,
  rule: string,
  message: string,
  line?: number,
): { ok: false; issues: ValidationIssue[] } {
  return { ok: false, issues: [{ severity: 'error', rule, message, file, ...(line ? { line } : {}) }] };
}
