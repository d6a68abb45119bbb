// A served skill's package: SKILL.md and its file list, or one file by its path inside the package. Files are read
// the way the export reads them (the source when unchanged since import, else the text the library kept); a path that
// is absolute or climbs out of the package is refused before anything is looked up.
import type { SkillDetail, SkillFile } from '../shared/api';
import { CuratorError } from '../shared/errors';
import type { Core } from '../core';
import { loadPackages, readPackage } from '../core/export/package-reader';
import { notServed, type AllowedSkills } from './allowed-skills';

export interface FileContent {
  path: string;
  mimeType: string;
  /** Set for text files. */
  text?: string;
  /** Base64, set for binary files. */
  blob?: string;
}

export const skillUri = (name: string, file = 'SKILL.md'): string =>
  `skill://${encodeURIComponent(name)}/${file.split('/').map(encodeURIComponent).join('/')}`;

/** A package-relative path, or a clear refusal for one that could leave the package. */
export function checkPackagePath(given: string): string {
  const p = given.trim();
  const segments = p.split('/');
  if (
    p === '' ||
    p.startsWith('/') ||
    p.includes('\\') ||
    p.includes('\0') ||
    /^[A-Za-z]:/.test(p) ||
    segments.some((s) => s === '..' || s === '.' || s === '')
  )
    throw new CuratorError(
      'INVALID_ARGUMENT',
      `Refused path "${given}": give a path inside the skill's package, such as references/guide.md (no "..", no absolute path)`,
    );
  return p;
}

const mimeTypes: Record<string, string> = {
  md: 'text/markdown',
  txt: 'text/plain',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  js: 'text/javascript',
  ts: 'text/typescript',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  html: 'text/html',
  csv: 'text/csv',
};

export function mimeTypeOf(file: string, isText: boolean): string {
  const ext = file.includes('.') ? file.slice(file.lastIndexOf('.') + 1).toLowerCase() : '';
  return mimeTypes[ext] ?? (isText ? 'text/plain' : 'application/octet-stream');
}

/**
 * The newest served skill of that name: a same-name twin the rule does not serve (an unverified copy imported later)
 * neither hides the served one nor is read in its place.
 */
export async function servedSkill(core: Core, allowed: AllowedSkills, name: string): Promise<SkillDetail> {
  if (typeof name !== 'string' || name.trim() === '')
    throw new CuratorError('INVALID_ARGUMENT', 'Give the name of a skill');
  const wanted = name.trim();
  const page = await core['library.list']({ ...(await allowed.filter()), name: wanted, limit: 500 });
  // Newest as library.get reads a name: last updated, then last imported.
  const [newest] = [...page.items].sort((a, b) =>
    a.updatedAt !== b.updatedAt ? (a.updatedAt < b.updatedAt ? 1 : -1) : b.id - a.id,
  );
  if (!newest || (await allowed.refusals(newest.id)).length > 0) throw notServed(wanted, allowed);
  return core['library.get']({ id: newest.id });
}

export async function readSkillFile(core: Core, skill: SkillDetail, given: string): Promise<FileContent> {
  const file = checkPackagePath(given);
  if (file === 'SKILL.md') return { path: file, mimeType: 'text/markdown', text: skill.fullText };
  const record: SkillFile | undefined = skill.files.find((f) => f.path === file);
  if (!record)
    throw new CuratorError(
      'NOT_FOUND',
      `The skill "${skill.name}" has no file ${file}; its files are: ${['SKILL.md', ...skill.files.map((f) => f.path)].join(', ')}`,
    );
  const [pkg] = loadPackages(core.context.db, [skill.id]).packages;
  if (!pkg) throw new CuratorError('NOT_FOUND', `The skill "${skill.name}" is no longer in the library`);
  const { files, missing } = await readPackage({ ...pkg, files: pkg.files.filter((f) => f.path === file) });
  const found = files.find((f) => f.path === file);
  if (!found)
    throw new CuratorError(
      'UNAVAILABLE',
      `Cannot read ${file} of "${skill.name}": ${missing[0]?.reason ?? 'not found as imported'}`,
    );
  const mimeType = mimeTypeOf(file, record.isText);
  // A text file goes as text only when that text is its bytes again, so the digest a host checks holds.
  const text = record.isText ? found.bytes.toString('utf8') : null;
  return text !== null && Buffer.from(text, 'utf8').equals(found.bytes)
    ? { path: file, mimeType, text }
    : { path: file, mimeType, blob: found.bytes.toString('base64') };
}
