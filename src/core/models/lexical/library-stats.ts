// The library statistics of the lexical engines, persisted (migration 041) and refreshed incrementally: a skill whose
// content hash, update time or parsed states differ from what its stored part was counted from, and a part whose skill is gone, are
// stale; refreshBatch takes their old parts out of the sums and puts the new ones in, one transaction per batch, so a
// stopped refresh goes on from what is still stale. Read by library-index-cache.ts for libraries too large to hold in
// memory.
import type { Db } from '../../store/db';
import { fields, type Field, type Row } from './library-index';
import { decodeIds, encodeIds, skillPart, type PartLengths } from './skill-part';

interface Totals {
  skills: number;
  sentences: number;
  plain: number[];
  judged: number[];
  /** Sum of all sentence lengths. */
  sentenceLength: number;
}

/** What the engines read: counts, averages, and document frequencies looked up per term. */
export interface PersistedStatistics {
  skills: number;
  sentences: number;
  averages: Record<Field, number>;
  judgedAverages: Record<Field, number>;
  documentLength: number;
  sentenceLength: number;
  df(term: string): number;
  sdf(term: string): number;
}

/** Parsed states as the sentence background reads them (the same statuses as library-index-cache.ts). */
const parsedStatus = `status IN ('parsed', 'edited', 'verified')`;
const statesStamp = `COALESCE((SELECT st.updated_at || ':' || st.status FROM skill_states st
  WHERE st.skill_id = s.id AND st.${parsedStatus}), '')`;

function hasStates(db: Db): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'skill_states'").get() !==
    undefined
  );
}

function readTotals(db: Db): Totals {
  const row = db.prepare('SELECT skills, sentences, lengths FROM lexical_totals WHERE id = 1').get() as {
    skills: number;
    sentences: number;
    lengths: string;
  };
  const l = JSON.parse(row.lengths) as { plain: number[]; judged: number[]; sentences: number };
  return {
    skills: row.skills,
    sentences: row.sentences,
    plain: l.plain,
    judged: l.judged,
    sentenceLength: l.sentences,
  };
}

/**
 * Skills whose part is missing or out of date (ids), and parts whose skill is gone, in id order, with ids in (after,
 * upto]: a caller that walks the library in windows reads only the window's rows (a whole scan at 68k skills holds
 * the thread ~0.3 s).
 */
function staleSkills(db: Db, limit: number, after = 0, upto = Number.MAX_SAFE_INTEGER): number[] {
  const states = hasStates(db) ? statesStamp : "''";
  return db
    .prepare(
      `SELECT s.id FROM skills s LEFT JOIN lexical_skills l ON l.skill_id = s.id
       WHERE s.id > @after AND s.id <= @upto AND (l.skill_id IS NULL
         OR l.skill_stamp <> s.content_hash || ':' || s.updated_at OR l.states_stamp <> ${states})
       UNION ALL
       SELECT l.skill_id FROM lexical_skills l
       WHERE l.skill_id > @after AND l.skill_id <= @upto AND NOT EXISTS (SELECT 1 FROM skills s WHERE s.id = l.skill_id)
       ORDER BY 1 LIMIT @limit`,
    )
    .pluck()
    .all({ after, upto, limit }) as number[];
}

/** Stale skills with ids in (after, upto]. */
export function staleCountIn(db: Db, after: number, upto: number): number {
  return staleSkills(db, Number.MAX_SAFE_INTEGER, after, upto).length;
}

/** The highest id a skill or a counted part has: where a walk over the library ends. */
export function lastSkillId(db: Db): number {
  return db
    .prepare(
      'SELECT max(COALESCE((SELECT max(id) FROM skills), 0), COALESCE((SELECT max(skill_id) FROM lexical_skills), 0))',
    )
    .pluck()
    .get() as number;
}

export function staleCount(db: Db): number {
  return staleSkills(db, Number.MAX_SAFE_INTEGER).length;
}

/** How far the statistics are: skills counted and still to count. */
export function statsProgress(db: Db): { done: number; total: number } {
  const total = db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
  return { done: Math.max(0, total - staleCount(db)), total };
}

/**
 * Brings up to `limit` stale skills' parts up to date in one transaction. Returns how many it did (0: the statistics
 * are current).
 */
export function refreshBatch(db: Db, limit = 500): number {
  return refreshSlice(db, limit, 0).did;
}

/**
 * refreshBatch over the stale skills with ids in (after, upto] only. `last` is the last id it did (`after` when it
 * did none).
 */
export function refreshSlice(
  db: Db,
  limit: number,
  after: number,
  upto = Number.MAX_SAFE_INTEGER,
): { did: number; last: number } {
  return db.transaction(() => {
    const ids = staleSkills(db, limit, after, upto);
    if (ids.length === 0) return { did: 0, last: after };
    const totals = readTotals(db);
    const df = new Map<number, number>();
    const sdf = new Map<number, number>();
    const bump = (m: Map<number, number>, id: number, by: number) => m.set(id, (m.get(id) ?? 0) + by);
    const addLengths = (l: PartLengths, sign: number) => {
      totals.skills += sign;
      totals.sentences += sign * l.sentences.length;
      l.plain.forEach((n, i) => (totals.plain[i]! += sign * n));
      l.judged.forEach((n, i) => (totals.judged[i]! += sign * n));
      for (const n of l.sentences) totals.sentenceLength += sign * n;
    };
    const oldPart = db.prepare('SELECT lengths, terms, sentences FROM lexical_skills WHERE skill_id = ?');
    const skill = db.prepare(
      "SELECT id, name, description, body, content_hash || ':' || updated_at AS stamp FROM skills WHERE id = ?",
    );
    const states = hasStates(db)
      ? db.prepare(
          `SELECT precondition, completion, updated_at || ':' || status AS stamp FROM skill_states
           WHERE skill_id = ? AND ${parsedStatus}`,
        )
      : null;
    const termId = db.prepare('SELECT id FROM lexical_terms WHERE term = ?').pluck();
    const newTerm = db.prepare('INSERT INTO lexical_terms (term) VALUES (?)');
    const idOf = (term: string): number =>
      (termId.get(term) as number | undefined) ?? Number(newTerm.run(term).lastInsertRowid);
    const remove = db.prepare('DELETE FROM lexical_skills WHERE skill_id = ?');
    const put = db.prepare(
      `INSERT INTO lexical_skills (skill_id, skill_stamp, states_stamp, lengths, terms, sentences)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    for (const id of ids) {
      const old = oldPart.get(id) as { lengths: string; terms: Buffer; sentences: Buffer } | undefined;
      if (old) {
        addLengths(JSON.parse(old.lengths) as PartLengths, -1);
        for (const t of decodeIds(old.terms)[0] ?? []) bump(df, t, -1);
        for (const list of decodeIds(old.sentences)) for (const t of list) bump(sdf, t, -1);
        remove.run(id);
      }
      const row = skill.get(id) as (Row & { stamp: string }) | undefined;
      if (!row) continue;
      const st = states?.get(id) as
        { precondition: string | null; completion: string | null; stamp: string } | undefined;
      const texts = st ? [st.precondition, st.completion].filter((t): t is string => t !== null) : [];
      const part = skillPart(row, texts);
      const termIds = part.terms.map(idOf);
      const sentenceIds = part.sentences.map((list) => list.map(idOf));
      addLengths(part.lengths, 1);
      for (const t of termIds) bump(df, t, 1);
      for (const list of sentenceIds) for (const t of list) bump(sdf, t, 1);
      put.run(
        id,
        row.stamp,
        st?.stamp ?? '',
        JSON.stringify(part.lengths),
        encodeIds([termIds]),
        encodeIds(sentenceIds),
      );
    }
    const update = db.prepare('UPDATE lexical_terms SET df = df + ?, sdf = sdf + ? WHERE id = ?');
    for (const id of new Set([...df.keys(), ...sdf.keys()])) {
      const a = df.get(id) ?? 0;
      const b = sdf.get(id) ?? 0;
      if (a !== 0 || b !== 0) update.run(a, b, id);
    }
    db.prepare('UPDATE lexical_totals SET skills = ?, sentences = ?, lengths = ? WHERE id = 1').run(
      totals.skills,
      totals.sentences,
      JSON.stringify({ plain: totals.plain, judged: totals.judged, sentences: totals.sentenceLength }),
    );
    return { did: ids.length, last: ids[ids.length - 1]! };
  })();
}

/** Refreshes until current (or until the signal aborts, between batches); a read-only library is read as it is. */
export function refreshAll(db: Db, batch = 500, signal?: AbortSignal): void {
  if (db.readonly) return;
  // From the last id done, not from the first: a pass from 0 that finds nothing ends it.
  let after = 0;
  while (!signal?.aborted) {
    const { did, last } = refreshSlice(db, batch, after);
    if (did === 0 && after === 0) return;
    after = did === 0 ? 0 : last;
  }
}

const averagesOf = (sums: number[], n: number): Record<Field, number> =>
  Object.fromEntries(fields.map((f, i) => [f, Math.max(1, sums[i]! / Math.max(1, n))])) as Record<
    Field,
    number
  >;

/** The statistics as stored (call refreshAll first for current ones). Term lookups are memoised per object. */
export function persistedStatistics(db: Db): PersistedStatistics {
  const t = readTotals(db);
  const lookup = db.prepare('SELECT df, sdf FROM lexical_terms WHERE term = ?');
  const memo = new Map<string, { df: number; sdf: number }>();
  const get = (term: string) => {
    let v = memo.get(term);
    if (!v) {
      if (memo.size >= 100_000) memo.clear();
      v = (lookup.get(term) as { df: number; sdf: number } | undefined) ?? { df: 0, sdf: 0 };
      memo.set(term, v);
    }
    return v;
  };
  const judgedTotal = t.judged.reduce((a, b) => a + b, 0);
  return {
    skills: t.skills,
    sentences: t.sentences,
    averages: averagesOf(t.plain, t.skills),
    judgedAverages: averagesOf(t.judged, t.skills),
    documentLength: t.skills > 0 ? Math.max(1, judgedTotal / t.skills) : 1,
    sentenceLength: t.sentences > 0 ? Math.max(1, t.sentenceLength / t.sentences) : 1,
    df: (term) => get(term).df,
    sdf: (term) => get(term).sdf,
  };
}
