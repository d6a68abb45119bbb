// Compares what a source holds now (a folder, or a Git checkout's sub-folder) with what the library holds for it:
// added, changed and removed skills with a diff per skill. Reads the source through the import's own reader, writes
// nothing. A folder that is not there (deleted, or a Git sub-folder that went) is a source that lost every skill: the
// scan says so (`missing`) and lists them all as removed, rather than failing.
import { promises as fsp } from 'node:fs';
import type { ReviewStatus, UpdateItem } from '../../shared/api';
import type { Db } from '../store/db';
import { readParsedSkill } from '../skills/place-skill';
import { openSource } from '../skills/sources/open-source';
import type { ImportSettings, ParsedSkill, ValidationIssue } from '../skills/types';
import { skillsOfSource, findSkillAt } from '../store/skills-repo';
import { diffHunks, diffLines } from './line-diff';

export interface UpstreamScan {
  added: UpdateItem[];
  changed: UpdateItem[];
  removed: UpdateItem[];
  unchanged: number;
  rejected: { relPath: string; file: string; issues: ValidationIssue[] }[];
  /** The loaded upstream skills by place, for applying. */
  incoming: Map<string, ParsedSkill>;
  /** True when the folder itself is not there: every skill of the source is in `removed`. */
  missing?: boolean;
}

export async function scanUpstream(
  db: Db,
  sourceId: number,
  folder: string,
  limits: ImportSettings,
  signal: AbortSignal,
): Promise<UpstreamScan> {
  const scan: UpstreamScan = {
    added: [],
    changed: [],
    removed: [],
    unchanged: 0,
    rejected: [],
    incoming: new Map(),
  };
  if (await folderMissing(folder)) {
    scan.missing = true;
    listRemoved(db, sourceId, new Set(), scan);
    return scan;
  }
  const opened = await openSource('folder', folder, limits, signal);
  const seen = new Set<string>();
  try {
    for (const item of opened.items) {
      seen.add(item.relPath);
      if (item.type === 'rejection') {
        scan.rejected.push({ relPath: item.relPath, file: item.file, issues: item.issues });
        continue;
      }
      const loaded = await item.load();
      if (!loaded.ok) {
        scan.rejected.push({ relPath: item.relPath, file: item.file, issues: loaded.issues });
        continue;
      }
      const skill = loaded.skill;
      const here = findSkillAt(db, sourceId, skill.relPath);
      if (here && here.contentHash === skill.contentHash) {
        scan.unchanged++;
        continue;
      }
      scan.incoming.set(skill.relPath, skill);
      const held = here ? readParsedSkill(db, here.id) : undefined;
      const entry: UpdateItem = {
        relPath: skill.relPath,
        name: skill.name,
        skillId: here?.id ?? null,
        reviewStatus: here ? reviewStatusOf(db, here.id) : null,
        diff: diffHunks(diffLines(held?.fullText ?? '', skill.fullText)),
        files: fileChanges(held?.files ?? [], skill.files),
      };
      (here ? scan.changed : scan.added).push(entry);
    }
  } finally {
    await opened.close();
  }
  if (opened.complete !== false) listRemoved(db, sourceId, seen, scan);
  return scan;
}

/** Only a path that does not exist (or runs through a file) is missing; any other stat error is left to the reader. */
async function folderMissing(folder: string): Promise<boolean> {
  try {
    await fsp.stat(folder);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}

function listRemoved(db: Db, sourceId: number, seen: Set<string>, scan: UpstreamScan): void {
  for (const row of skillsOfSource(db, sourceId)) {
    if (seen.has(row.relPath)) continue;
    const held = readParsedSkill(db, row.id);
    scan.removed.push({
      relPath: row.relPath,
      name: row.name,
      skillId: row.id,
      reviewStatus: reviewStatusOf(db, row.id),
      diff: diffHunks(diffLines(held?.fullText ?? '', '')),
      files: (held?.files ?? []).map((f) => ({ path: f.path, change: 'removed' as const })),
    });
  }
}

export function reviewStatusOf(db: Db, skillId: number): ReviewStatus {
  const row = db.prepare('SELECT status FROM skill_states WHERE skill_id = ?').get(skillId) as
    { status: ReviewStatus } | undefined;
  return row?.status ?? 'unparsed';
}

function fileChanges(before: ParsedSkill['files'], after: ParsedSkill['files']): UpdateItem['files'] {
  const old = new Map(before.map((f) => [f.path, f.sha256]));
  const out: UpdateItem['files'] = [];
  for (const f of after) {
    const was = old.get(f.path);
    if (was === undefined) out.push({ path: f.path, change: 'added' });
    else if (was !== f.sha256) out.push({ path: f.path, change: 'changed' });
    old.delete(f.path);
  }
  for (const p of old.keys()) out.push({ path: p, change: 'removed' });
  return out;
}
