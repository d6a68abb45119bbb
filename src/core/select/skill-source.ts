// Reads the candidates' texts and states from the library file for the recall step.
import type { Db } from '../store/db';
import type { SkillForSelection } from './recall';

interface Row {
  id: number;
  name: string;
  description: string;
  body: string;
  precondition: string | null;
  completion: string | null;
  status: string | null;
}

// Only these statuses carry states; unparsed and failed skills are "parse missing" (METHOD.md edge cases).
const withStates = new Set(['parsed', 'edited', 'verified']);

export function loadSkillsForSelection(db: Db, ids: readonly number[]): SkillForSelection[] {
  if (ids.length === 0) return [];
  const hasStates =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'skill_states'").get() !==
    undefined;
  const sql = hasStates
    ? `SELECT s.id, s.name, s.description, s.body, st.precondition, st.completion, st.status
       FROM skills s LEFT JOIN skill_states st ON st.skill_id = s.id WHERE s.id IN (SELECT value FROM json_each(?))`
    : `SELECT s.id, s.name, s.description, s.body, NULL AS precondition, NULL AS completion, NULL AS status
       FROM skills s WHERE s.id IN (SELECT value FROM json_each(?))`;
  const rows = db.prepare(sql).all(JSON.stringify(ids)) as Row[];
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    body: r.body,
    states:
      r.status !== null && withStates.has(r.status) && r.completion !== null
        ? { precondition: r.precondition, completion: r.completion }
        : null,
  }));
}

export function librarySize(db: Db): number {
  return db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
}
