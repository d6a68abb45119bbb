// The gold skills of a label set that the library does not hold: each is scored as a miss by every variant, so a
// set written for another library evaluates to zeros, and a gold skill deleted by mistake lowers every figure. Said
// beside the set and the figures instead of leaving them unexplained; those in the trash can be restored.
import type { GoldCoverage } from '../../shared/api/evaluation';
import type { Db } from '../store/db';
import { getLabelItems } from './label-store';

export function goldCoverage(db: Db, setId: number): GoldCoverage {
  const names = [...new Set(getLabelItems(db, setId).flatMap((i) => i.gold))];
  const held = db.prepare('SELECT 1 FROM skills WHERE name = ? LIMIT 1').pluck();
  const missing = names.filter((n) => held.get(n) === undefined);
  const trashed = new Map<string, number>();
  if (missing.length > 0) {
    const rows = db
      .prepare(
        `SELECT d.id AS id, json_extract(s.value, '$.skill.name') AS name
         FROM deleted_items AS d, json_each(d.payload, '$.skills') AS s
         WHERE d.restored_at IS NULL ORDER BY d.id DESC`,
      )
      .all() as { id: number; name: string }[];
    for (const r of rows) if (!trashed.has(r.name)) trashed.set(r.name, r.id);
  }
  return {
    total: names.length,
    missing,
    inTrash: missing.filter((n) => trashed.has(n)).map((name) => ({ name, deleteId: trashed.get(name)! })),
  };
}
