// The gold skills of a label set that the library does not hold: each is scored as a miss by every variant, so a
// set written for another library evaluates to zeros, and a gold skill deleted by mistake lowers every figure. Said
// beside the set and the figures instead of leaving them unexplained; those in the trash can be restored. And the
// other way round: the label sets whose gold a delete would take away.
import type { GoldCoverage } from '../../shared/api/evaluation';
import { trashedSkillNames } from '../sources/trash';
import type { Db } from '../store/db';
import { getLabelItems } from './label-store';

export function goldCoverage(db: Db, setId: number): GoldCoverage {
  const names = [...new Set(getLabelItems(db, setId).flatMap((i) => i.gold))];
  const held = db.prepare('SELECT 1 FROM skills WHERE name = ? LIMIT 1').pluck();
  const missing = names.filter((n) => held.get(n) === undefined);
  const trashed = missing.length > 0 ? trashedSkillNames(db) : new Map<string, number>();
  return {
    total: names.length,
    missing,
    inTrash: missing.filter((n) => trashed.has(n)).map((name) => ({ name, deleteId: trashed.get(name)! })),
  };
}

/** The label sets whose gold names any of these skills, each with those names. */
export function labelSetsNaming(db: Db, names: readonly string[]): { set: string; skills: string[] }[] {
  if (names.length === 0) return [];
  const rows = db
    .prepare(
      `SELECT DISTINCT s.name AS setName, g.value AS skill
       FROM label_items AS i JOIN label_sets AS s ON s.id = i.set_id, json_each(i.gold) AS g
       WHERE g.value IN (SELECT value FROM json_each(?)) ORDER BY s.name, g.value`,
    )
    .all(JSON.stringify(names)) as { setName: string; skill: string }[];
  const bySet = new Map<string, string[]>();
  for (const r of rows) bySet.set(r.setName, [...(bySet.get(r.setName) ?? []), r.skill]);
  return [...bySet].map(([set, skills]) => ({ set, skills }));
}
