// One JSONL line's object as a skill: the keys other than body, path and files are the front matter, written out as the
// SKILL.md text the library stores. The keys are already data, so the YAML written from them is not parsed back, except
// where that text could read differently from the data (then the SKILL.md path reads it, with all its checks).
import { createHash } from 'node:crypto';
import { parseJsonText } from '../../json-syntax';
import { expandedSizeOver, frontMatterMaxBytes } from '../front-matter';
import { summarizeBytes } from '../package-files';
import { buildSkill, buildSkillFromFrontMatter, type BuildResult } from '../skill-md';
import type { ImportSettings, PackageFile, ValidationIssue } from '../types';
import { yamlModule } from '../yaml-module';

const notFrontMatter = new Set(['body', 'path', 'files']);
const fence = /^---[ \t]*$/m;

/** Where a line is: its skill's place, its line number, and its bytes in the dump. */
export interface LineAt {
  relPath: string;
  line: number;
  offset: number;
  length: number;
}

/** A line's bytes, read again when its skill is written, as a skill; throws when they no longer parse. */
export function skillOfLineBytes(
  bytes: Buffer,
  at: LineAt,
  base: string,
  limits: ImportSettings,
): BuildResult {
  const parsed = parseJsonText(bytes.toString('utf8'));
  if (!parsed.ok) throw new Error(`line ${at.line} changed while it was imported`);
  const result = lineToSkill(parsed.value as Record<string, unknown>, at.relPath, base, at.line, limits);
  if (result.ok) result.skill.sourceDigest = lineDigest(bytes);
  return result;
}

/** The digest a skill stores as its `source_digest`: over the line's bytes without its line end. */
export function lineDigest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64');
}

export function lineToSkill(
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
  const body = obj.body;
  const frontMatter = Object.fromEntries(Object.entries(obj).filter(([k]) => !notFrontMatter.has(k)));
  // Checked before turning it into YAML: the line may hold two megabytes of keys.
  if (JSON.stringify(frontMatter).length > frontMatterMaxBytes)
    return fail(
      'front-matter-too-large',
      `line ${lineNo}: the keys other than body, path and files take more than ${frontMatterMaxBytes} bytes`,
    );
  const files = packageFiles(obj.files, lineNo, limits);
  if (!Array.isArray(files)) return fail(files.rule, files.message);
  const yaml = yamlModule().stringify(frontMatter);
  const skillMd = `---\n${yaml}---\n\n${body}`;
  const input = {
    bytes: Buffer.from(skillMd, 'utf8'),
    file,
    relPath,
    folderName: null,
    files,
    maxBytes: limits.skillMdMaxBytes,
    nameFormat: limits.nameFormat,
  };
  const result = readsAsWritten(skillMd, yaml, frontMatter, input.bytes.length, limits)
    ? buildSkillFromFrontMatter(input, skillMd, { data: frontMatter, keyLines: {}, body })
    : buildSkill(input);
  // The SKILL.md text was built here, so the line that matters to the user is the JSONL line.
  const atLine = (issues: ValidationIssue[]) => issues.map((i) => ({ ...i, line: lineNo }));
  return result.ok
    ? { ok: true, skill: { ...result.skill, warnings: atLine(result.skill.warnings) } }
    : { ok: false, issues: atLine(result.issues) };
}

/**
 * True when reading the written SKILL.md back would give exactly these keys and this body and pass every check of the
 * text itself: within the size bounds, no NUL byte, no unpaired surrogate (written as U+FFFD), and no line in the YAML
 * that closes the front matter early or ends in a CR.
 */
function readsAsWritten(
  skillMd: string,
  yaml: string,
  frontMatter: Record<string, unknown>,
  bytes: number,
  limits: ImportSettings,
): boolean {
  return (
    bytes <= limits.skillMdMaxBytes &&
    Buffer.byteLength(yaml, 'utf8') <= frontMatterMaxBytes &&
    !expandedSizeOver(frontMatter, frontMatterMaxBytes) &&
    wellFormed(skillMd) &&
    !skillMd.includes('\0') &&
    !yaml.includes('\r') &&
    !fence.test(yaml)
  );
}

/** No unpaired surrogate (ES2024's String.prototype.isWellFormed, which Node 20 has and the ES2023 typings lack). */
function wellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

function packageFiles(
  value: unknown,
  lineNo: number,
  limits: ImportSettings,
): PackageFile[] | { rule: string; message: string } {
  const files: PackageFile[] = [];
  if (value === undefined) return files;
  if (!Array.isArray(value))
    return { rule: 'jsonl-files-type', message: `line ${lineNo}: "files" must be a list of {path, content}` };
  const paths = new Set<string>(['SKILL.md']);
  for (const [i, f] of (value as unknown[]).entries()) {
    const entry = f as { path?: unknown; content?: unknown };
    if (
      typeof entry?.path !== 'string' ||
      typeof entry.content !== 'string' ||
      !plainRelativePath(entry.path)
    ) {
      return {
        rule: 'jsonl-files-type',
        message: `line ${lineNo}: file ${i + 1} needs a plain relative "path" (no "", "." or ".." parts) and text "content"`,
      };
    }
    if (paths.has(entry.path))
      return {
        rule: 'jsonl-files-duplicate',
        message: `line ${lineNo}: file ${i + 1} has the path "${entry.path}", which ${entry.path === 'SKILL.md' ? 'the skill itself uses' : 'an earlier file has'}`,
      };
    paths.add(entry.path);
    files.push(summarizeBytes(entry.path, Buffer.from(entry.content, 'utf8'), limits.referenceTextMaxBytes));
  }
  return files;
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
