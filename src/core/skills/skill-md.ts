// Turns the bytes of one SKILL.md (plus its package files) into a validated skill, or the errors that reject it.
import { splitFrontMatter, type FrontMatter } from './front-matter';
import { contentHash } from './package-files';
import { decodeUtf8, firstInvalidUtf8, lineOfOffset, looksBinary } from './text-bytes';
import type { IssueSeverity, PackageFile, ParsedSkill, ValidationIssue } from './types';
import { validateFrontMatter } from './validate';

export interface SkillMdInput {
  bytes: Uint8Array;
  /** SKILL.md's path as the user should read it in a message (relative to the source). */
  file: string;
  relPath: string;
  folderName: string | null;
  files: PackageFile[];
  maxBytes: number;
  nameFolderMismatch?: IssueSeverity;
  nameFormat?: IssueSeverity;
  /** Issues found while reading the package that do not reject it. */
  warnings?: ValidationIssue[];
}

export type BuildResult = { ok: true; skill: ParsedSkill } | { ok: false; issues: ValidationIssue[] };

export function buildSkill(input: SkillMdInput): BuildResult {
  const { bytes, file } = input;
  const reject = (rule: string, message: string, line?: number): BuildResult => ({
    ok: false,
    issues: [{ severity: 'error', rule, message, file, ...(line ? { line } : {}) }],
  });
  if (bytes.length > input.maxBytes) {
    return reject('skill-md-too-large', `SKILL.md is ${bytes.length} bytes; the limit is ${input.maxBytes}`);
  }
  if (bytes.length === 0) return reject('skill-md-empty', 'SKILL.md is empty');
  if (looksBinary(bytes, bytes.length)) {
    const at = bytes.indexOf(0);
    return reject(
      'skill-md-binary',
      'SKILL.md is a binary file (it contains NUL bytes), not text',
      lineOfOffset(bytes, at),
    );
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) {
    return reject(
      'skill-md-encoding',
      `SKILL.md is not valid UTF-8 (first bad byte at offset ${bad})`,
      lineOfOffset(bytes, bad),
    );
  }
  const text = decodeUtf8(bytes).replace(/^\uFEFF/, '');
  const split = splitFrontMatter(text, file);
  if (!split.ok) return split;
  return validatedSkill(input, text, split.value);
}

/**
 * A skill from SKILL.md text whose front matter the caller already holds as data (a JSONL line: its keys are the
 * front matter, and the text was written from them), checked by the same rules as a parsed one.
 */
export function buildSkillFromFrontMatter(input: SkillMdInput, text: string, fm: FrontMatter): BuildResult {
  return validatedSkill(input, text, fm);
}

function validatedSkill(input: SkillMdInput, text: string, fm: FrontMatter): BuildResult {
  const issues = validateFrontMatter(fm, {
    file: input.file,
    folderName: input.folderName,
    nameFolderMismatch: input.nameFolderMismatch ?? 'error',
    nameFormat: input.nameFormat ?? 'error',
  });
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) return { ok: false, issues: errors };
  return {
    ok: true,
    skill: {
      name: fm.data.name as string,
      description: fm.data.description as string,
      frontMatter: fm.data,
      body: fm.body,
      fullText: text,
      relPath: input.relPath,
      files: input.files,
      contentHash: contentHash(input.bytes, input.files),
      warnings: [...(input.warnings ?? []), ...issues],
    },
  };
}
