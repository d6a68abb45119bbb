// The Agent Skills specification's rules for SKILL.md front matter: errors reject a skill, warnings keep it.
import type { FrontMatter } from './front-matter';
import type { IssueSeverity, ValidationIssue } from './types';

export interface ValidateContext {
  file: string;
  /** Name of the folder that holds SKILL.md; null when there is none (a JSONL line). */
  folderName: string | null;
  nameFolderMismatch: IssueSeverity;
  nameFormat: IssueSeverity;
}

const knownKeys = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
const nameMax = 64;
const descriptionMax = 1024;
const compatibilityMax = 500;

const chars = (s: string) => [...s].length;

export function validateFrontMatter(fm: FrontMatter, ctx: ValidateContext): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const add = (severity: IssueSeverity, rule: string, message: string, key?: string) =>
    issues.push({ severity, rule, message, file: ctx.file, ...lineOf(fm, key) });
  const { data } = fm;

  const name = data.name;
  if (name === undefined || name === null || name === '')
    add('error', 'name-required', 'front matter has no "name"', 'name');
  else if (typeof name !== 'string')
    add('error', 'name-type', `"name" must be text, not ${kindOf(name)}`, 'name');
  else {
    for (const problem of nameProblems(name))
      add(problem.rule === 'name-format' ? ctx.nameFormat : 'error', problem.rule, problem.message, 'name');
    if (ctx.folderName !== null && name !== ctx.folderName) {
      add(
        ctx.nameFolderMismatch,
        'name-matches-folder',
        `"name" is "${name}" but its folder is "${ctx.folderName}"; the two must be equal`,
        'name',
      );
    }
  }

  const description = data.description;
  if (description === undefined || description === null || description === '') {
    add('error', 'description-required', 'front matter has no "description"', 'description');
  } else if (typeof description !== 'string') {
    add('error', 'description-type', `"description" must be text, not ${kindOf(description)}`, 'description');
  } else if (description.trim() === '') {
    add('error', 'description-required', '"description" is blank', 'description');
  } else if (chars(description) > descriptionMax) {
    add(
      'error',
      'description-length',
      `"description" is ${chars(description)} characters; at most ${descriptionMax} are allowed`,
      'description',
    );
  }

  if ('compatibility' in data) {
    const c = data.compatibility;
    if (typeof c !== 'string')
      add('error', 'compatibility-type', `"compatibility" must be text, not ${kindOf(c)}`, 'compatibility');
    else if (chars(c) === 0 || chars(c) > compatibilityMax) {
      add(
        'error',
        'compatibility-length',
        `"compatibility" must be 1-${compatibilityMax} characters, it is ${chars(c)}`,
        'compatibility',
      );
    }
  }

  if ('metadata' in data) {
    const m = data.metadata;
    if (m === null) add('warning', 'metadata-empty', '"metadata" is given but empty', 'metadata');
    else if (typeof m !== 'object' || Array.isArray(m)) {
      add(
        'error',
        'metadata-type',
        `"metadata" must be a mapping of keys to text values, not ${kindOf(m)}`,
        'metadata',
      );
    } else {
      const nonText = Object.entries(m).filter(([, v]) => typeof v !== 'string');
      if (nonText.length > 0) {
        add(
          'warning',
          'metadata-value-type',
          `"metadata" values should be text; not text: ${nonText.map(([k]) => k).join(', ')}`,
          'metadata',
        );
      }
    }
  }

  if ('license' in data && typeof data.license !== 'string') {
    add('warning', 'license-type', `"license" should be text, not ${kindOf(data.license)}`, 'license');
  }
  if ('allowed-tools' in data && typeof data['allowed-tools'] !== 'string') {
    add(
      'warning',
      'allowed-tools-type',
      `"allowed-tools" should be one space-separated text, not ${kindOf(data['allowed-tools'])}`,
      'allowed-tools',
    );
  }

  for (const key of Object.keys(data)) {
    if (!knownKeys.has(key))
      add('warning', 'unknown-key', `"${key}" is not a key of the Agent Skills specification`, key);
  }
  if (fm.body.trim() === '')
    add('warning', 'body-empty', 'SKILL.md has no instructions after the front matter');
  return issues;
}

/** Why a name breaks the spec's format rules, one entry per broken rule. */
export function nameProblems(name: string): { rule: string; message: string }[] {
  const out: { rule: string; message: string }[] = [];
  if (chars(name) > nameMax)
    out.push({
      rule: 'name-length',
      message: `"name" is ${chars(name)} characters; at most ${nameMax} are allowed`,
    });
  const bad = [...new Set(name.replace(/[a-z0-9-]/g, ''))];
  if (bad.length > 0) {
    const shown = bad.map((c) => (c === ' ' ? 'space' : JSON.stringify(c))).join(', ');
    out.push({
      rule: 'name-format',
      message: `"name" may hold only lowercase letters, digits and hyphens; it has ${shown}`,
    });
  }
  if (name.startsWith('-') || name.endsWith('-'))
    out.push({ rule: 'name-format', message: '"name" must not start or end with a hyphen' });
  if (name.includes('--'))
    out.push({ rule: 'name-format', message: '"name" must not contain two hyphens in a row' });
  return out;
}

function lineOf(fm: FrontMatter, key?: string): { line?: number } {
  const line = key === undefined ? undefined : fm.keyLines[key];
  return line === undefined ? {} : { line };
}

function kindOf(v: unknown): string {
  if (v === null || v === undefined) return 'empty';
  if (Array.isArray(v)) return 'a list';
  if (v instanceof Date) return 'a date';
  return typeof v === 'object' ? 'a mapping' : `a ${typeof v}`;
}
