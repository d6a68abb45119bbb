// One LibraryIndex per library file, kept while the library is unchanged. Checking costs one tiny query while nothing
// was written (total_changes and data_version); after a write, fingerprints of the skills and of the states decide
// whether the write touched them (saving a selection run does not): skills changed rebuild the index, states changed
// only its states' background.
import type { Db } from '../../store/db';
import { LibraryIndex, type Row } from './library-index';

interface Entry {
  writes: string;
  skills: string;
  states: string;
  index: LibraryIndex;
}

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

function parsedStates(db: Db): string[] {
  return db
    .prepare(
      `SELECT text FROM (
         SELECT skill_id, 0 AS k, precondition AS text FROM skill_states WHERE status IN ('parsed', 'edited', 'verified')
         UNION ALL
         SELECT skill_id, 1, completion FROM skill_states WHERE status IN ('parsed', 'edited', 'verified')
       ) WHERE text IS NOT NULL ORDER BY skill_id, k`,
    )
    .pluck()
    .all() as string[];
}

/**
 * The index of the library in db, rebuilt only when a skill was added, removed or changed; a change to states alone
 * makes only the states' background again.
 */
export function libraryIndex(db: Db): LibraryIndex {
  const writes = writeCounter(db);
  const hit = cache.get(db);
  if (hit && hit.writes === writes) return hit.index;
  const hasStates = hasStatesTable(db);
  const skills = skillsFingerprint(db);
  const states = statesFingerprint(db, hasStates);
  let index: LibraryIndex;
  if (hit && hit.skills === skills) {
    if (hit.states === states) {
      hit.writes = writes;
      return hit.index;
    }
    index = hit.index.withStates(hasStates ? parsedStates(db) : []);
  } else {
    const rows = db.prepare('SELECT id, name, description, body FROM skills ORDER BY id').all() as Row[];
    index = new LibraryIndex(rows, hasStates ? parsedStates(db) : []);
  }
  cache.set(db, { writes, skills, states, index });
  return index;
}
