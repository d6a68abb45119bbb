// One LibraryIndex per library file, kept while the library is unchanged. Checking costs one tiny query while nothing
// was written (total_changes and data_version); after a write, fingerprints of the skills and of the states decide
// whether the write touched them (saving a selection run does not): skills changed rebuild the index, states changed
// only its states' background.
// A library of more than `sampledFrom.skills` skills is not held in memory: its statistics are persisted and refreshed
// incrementally (library-stats.ts), the index holds a fixed pseudo-random sample of that many skills for the
// cross-scorer's backgrounds, and the recall ranks FTS5 candidates (bounded-recall.ts).
import type { Db } from '../../store/db';
import { boundedRank } from './bounded-recall';
import { Memo, type TermBag } from './bm25';
import { LibraryIndex, type Field, type Row } from './library-index';
import { persistedStatistics, refreshAll, type PersistedStatistics } from './library-stats';

/**
 * Up to `skills` skills the whole library is held (exact backgrounds, exact recall); above, `sample` sampled skills
 * stand for it in the backgrounds.
 */
export const sampledFrom = { skills: 2000, sample: 2000 };

interface Entry {
  writes: string;
  skills: string;
  states: string;
  /** Made on first use for a large library (the recall does not need it). */
  index: LibraryIndex | null;
  /** Set when the library is large: its persisted statistics. */
  stats: PersistedStatistics | null;
  /** A large library's candidates as term bags, kept while its skills are unchanged. */
  bags: Memo<Record<Field, TermBag>>;
}

/** Candidates' bags kept per large library: about 10 KB each. */
const keptBags = 20_000;

const cache = new WeakMap<Db, Entry>();

/** Writes on this connection and commits by others: unchanged means nothing can have changed. */
function writeCounter(db: Db): string {
  const changes = db.prepare('SELECT total_changes()').pluck().get() as number;
  return `${changes}:${String(db.pragma('data_version', { simple: true }))}`;
}

function hasStatesTable(db: Db): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'skill_states'").get() !==
    undefined
  );
}

/** Reads no body (length() of every body costs milliseconds): hashes, ids, newest updates, summary lengths. */
function skillsFingerprint(db: Db): string {
  return JSON.stringify(
    db
      .prepare(
        `SELECT count(*) AS n, total(id) AS ids, max(updated_at) AS at,
           total(length(name) + length(description)) AS chars,
           group_concat(content_hash, '') AS hashes FROM skills`,
      )
      .get(),
  );
}

function statesFingerprint(db: Db, states: boolean): string {
  return states
    ? JSON.stringify(db.prepare('SELECT count(*) AS n, max(updated_at) AS at FROM skill_states').get())
    : '';
}

function parsedStates(db: Db, ids?: readonly number[]): string[] {
  const texts = db.prepare(
    `SELECT text FROM (
       SELECT skill_id, 0 AS k, precondition AS text FROM skill_states WHERE status IN ('parsed', 'edited', 'verified')
       UNION ALL
       SELECT skill_id, 1, completion FROM skill_states WHERE status IN ('parsed', 'edited', 'verified')
     ) WHERE text IS NOT NULL ${ids ? 'AND skill_id = ?' : ''} ORDER BY skill_id, k`,
  );
  if (!ids) return texts.pluck().all() as string[];
  return ids.flatMap((id) => texts.pluck().all(id) as string[]);
}

/** The sample of a large library: the first skills in a fixed pseudo-random order of ids (Knuth's multiplicative hash). */
function sampleIds(db: Db, n: number): number[] {
  return db
    .prepare('SELECT id FROM skills ORDER BY (id * 2654435761) % 4294967296, id LIMIT ?')
    .pluck()
    .all(n) as number[];
}

function build(
  db: Db,
  hasStates: boolean,
): { index: LibraryIndex | null; stats: PersistedStatistics | null } {
  const size = db.prepare('SELECT count(*) FROM skills').pluck().get() as number;
  if (size <= sampledFrom.skills) {
    const rows = db.prepare('SELECT id, name, description, body FROM skills ORDER BY id').all() as Row[];
    return { index: new LibraryIndex(rows, hasStates ? parsedStates(db) : []), stats: null };
  }
  refreshAll(db);
  return { index: null, stats: persistedStatistics(db) };
}

/** The sample of a large library as an index over the library's statistics. */
function sampleIndex(db: Db, stats: PersistedStatistics): LibraryIndex {
  const ids = sampleIds(db, sampledFrom.sample).sort((a, b) => a - b);
  const get = db.prepare('SELECT id, name, description, body FROM skills WHERE id = ?');
  const rows = ids.map((id) => get.get(id) as Row);
  return new LibraryIndex(rows, hasStatesTable(db) ? parsedStates(db, ids) : [], stats);
}

function entry(db: Db): Entry {
  const writes = writeCounter(db);
  const hit = cache.get(db);
  if (hit && hit.writes === writes) return hit;
  const hasStates = hasStatesTable(db);
  const skills = skillsFingerprint(db);
  const states = statesFingerprint(db, hasStates);
  let next: Entry;
  if (hit && hit.skills === skills) {
    if (hit.states === states) {
      hit.writes = writes;
      return hit;
    }
    if (hit.stats) {
      refreshAll(db);
      const stats = persistedStatistics(db);
      const index = hit.index?.withStates(parsedStates(db, hit.index.ids), stats) ?? null;
      next = { writes, skills, states, stats, index, bags: hit.bags };
    } else {
      next = {
        writes,
        skills,
        states,
        stats: null,
        index: hit.index!.withStates(hasStates ? parsedStates(db) : []),
        bags: hit.bags,
      };
    }
  } else {
    next = { writes, skills, states, ...build(db, hasStates), bags: new Memo(keptBags) };
  }
  cache.set(db, next);
  return next;
}

/**
 * The index of the library in db, rebuilt only when a skill was added, removed or changed; a change to states alone
 * makes only the states' background again. For a large library it holds the sample (see sampledFrom).
 */
export function libraryIndex(db: Db): LibraryIndex {
  const e = entry(db);
  if (!e.index) e.index = sampleIndex(db, e.stats!);
  return e.index;
}

/** The recall's ranking of the library for a query: the first k distinct skills (LibraryIndex.rankDistinct). */
export function rankLibrary(
  db: Db,
  query: string,
  k: number,
  allowed?: ReadonlySet<number>,
): { skillId: number; score: number }[] {
  const { index, stats, bags } = entry(db);
  return stats ? boundedRank(db, stats, query, k, allowed, bags) : index!.rankDistinct(query, k, allowed);
}
