// Text indexing deferred to the end of a batch of skill writes. Each INSERT or UPDATE of a skill runs as a statement
// that may abort (triggers, unique keys), so SQLite opens a statement savepoint for it, and FTS5 writes its pending
// index out as a new segment at every savepoint: skills indexed one by one between such statements made one index
// segment per skill, and automerge then merged them (30 % of an import's writes). Inside `deferIndexing` the skills
// written are stored paused (index_paused = 1, out of the index) and all resumed by one UPDATE at the end, so the
// index triggers add the batch in one statement and FTS5 writes it out once. Same transaction, so same atomicity.
// The texts the batch packed are kept until then (text-packing.ts): the index reads them without inflating them.
import type { Db } from './db';
import { stmt } from './statements';
import { keepPackedTexts } from './text-packing';

const deferred = new WeakMap<Db, number[]>();

/** The ids written paused so far in the current `deferIndexing` call on `db`, or undefined outside one. */
export function deferredIndexing(db: Db): number[] | undefined {
  return deferred.get(db);
}

/** Runs `write` (inside the caller's transaction) with the text indexing of the skills it writes done once at the end. */
export function deferIndexing<T>(db: Db, write: () => T): T {
  if (deferred.has(db)) return write();
  return keepPackedTexts(() => {
    const ids: number[] = [];
    deferred.set(db, ids);
    let out: T;
    try {
      out = write();
    } finally {
      deferred.delete(db);
    }
    if (ids.length > 0)
      stmt(
        db,
        'UPDATE skills SET index_paused = 0 WHERE id IN (SELECT value FROM json_each(?)) AND index_paused != 0',
      ).run(JSON.stringify(ids));
    return out;
  });
}
