// One file of a skill as text for the skill page (the audit points at its lines): read as the export and the audit
// read it, so the text shown is the text the finding was made on, or nothing with the reason.
import type { SkillFileText } from '../../shared/api/library';
import { CuratorError } from '../../shared/errors';
import type { Db } from '../store/db';
import { loadPackages, readPackage } from './package-reader';

/** More than this is not shown (a finding's line is in a text file a person can read). */
const longestShown = 2 * 1024 * 1024;

export async function skillFileText(db: Db, skillId: unknown, path: unknown): Promise<SkillFileText> {
  if (!Number.isInteger(skillId) || typeof path !== 'string' || path === '')
    throw new CuratorError('INVALID_ARGUMENT', 'Give a skill id and the path of one of its files');
  const { packages } = loadPackages(db, [skillId as number]);
  const pkg = packages[0];
  if (!pkg) throw new CuratorError('NOT_FOUND', `No skill ${String(skillId)}`);
  const base = { skillId: pkg.skillId, path };
  if (path === 'SKILL.md') return { ...base, text: pkg.fullText };
  const record = pkg.files.find((f) => f.path === path);
  if (!record) throw new CuratorError('NOT_FOUND', `${pkg.name} has no file ${path}`);
  if (record.size > longestShown)
    return { ...base, text: null, unavailable: `${path} is ${record.size} bytes, too long to show here` };
  const { files, missing } = await readPackage({ ...pkg, files: [record] });
  const read = files.find((f) => f.path === path);
  if (!read) return { ...base, text: null, unavailable: missing[0]?.reason ?? 'it could not be read' };
  if (read.bytes.includes(0)) return { ...base, text: null, unavailable: `${path} is not text (binary)` };
  return { ...base, text: read.bytes.toString('utf8') };
}
