// The bulk part of the API (the lasting Undo bar's last change and its Undo, Back to parsed), and the recorded
// forms of the bulk actions other services expose: Verify, Tag and Re-parse of a selection.
import type { BulkApi, BulkChange } from '../../shared/api/bulk';
import type { VerifyManyResult } from '../../shared/api/tags';
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import type { Clock } from '../llm/ports';
import type { Db } from '../store/db';
import { addTags, normaliseTag, removeTags, tagsOf } from '../tags/tags-repo';
import { verifyMany } from '../tags/verify-many';
import { backToParsed } from './back-to-parsed';
import { batchKey, fillChange, findChange, insertChange, lastChange, type TagPair } from './bulk-changes';
import { undoChange } from './bulk-undo';

export function createBulkService(ctx: CoreContext): BulkApi {
  const { db, clock } = ctx;
  return {
    'bulk.last': async () => lastChange(db),
    'bulk.undo': async (req) => {
      if (!Number.isInteger(req?.id))
        throw new CuratorError('INVALID_ARGUMENT', 'Give the id of the bulk change to undo (id)');
      const result = undoChange(db, clock, req.id);
      if (result.change.kind.startsWith('tag-')) ctx.events.emit({ type: 'library.changed', reason: 'tags' });
      else ctx.events.emit({ type: 'states.changed', skillIds: result.restored });
      return result;
    },
    'bulk.backToParsed': async (req) => {
      const result = db
        .transaction(() => {
          const id = insertChange(db, clock().toISOString(), { kind: 'back-to-parsed' });
          const done = backToParsed(db, clock, req?.skillIds, batchKey({ id, job_id: null }));
          return { ...done, change: fillChange(db, id, [...done.parsed, ...done.edited]) };
        })
        .immediate();
      ctx.events.emit({ type: 'states.changed', skillIds: [...result.parsed, ...result.edited] });
      return result;
    },
  };
}

/** states.verifyMany: the verifies and their bulk change in one transaction. */
export function verifyManyRecorded(
  db: Db,
  clock: Clock,
  skillIds: unknown,
  acknowledgeAudit?: unknown,
): VerifyManyResult & { change: BulkChange | null } {
  return db
    .transaction(() => {
      const id = insertChange(db, clock().toISOString(), { kind: 'verify' });
      const result = verifyMany(db, clock, skillIds, acknowledgeAudit, batchKey({ id, job_id: null }));
      return { ...result, change: fillChange(db, id, result.verified) };
    })
    .immediate();
}

/** tags.add / tags.remove with `bulk`: the (skill, tag) pairs that changed, recorded as one bulk change. */
export function tagRecorded(
  db: Db,
  clock: Clock,
  skillIds: unknown,
  tags: unknown,
  remove: boolean,
): { count: number; change: BulkChange | null } {
  return db
    .transaction(() => {
      // Read before the change; bad ids or tags make addTags / removeTags throw, which rolls all of it back.
      const ids = Array.isArray(skillIds) ? [...new Set(skillIds.filter(Number.isInteger) as number[])] : [];
      const before = tagsOf(db, ids);
      const count = remove ? removeTags(db, skillIds, tags) : addTags(db, skillIds, tags);
      const list = [...new Set((tags as unknown[]).map(normaliseTag))];
      const pairs: TagPair[] = ids.flatMap((skillId) =>
        list
          .filter((tag) => (before.get(skillId) ?? []).includes(tag) === remove)
          .map((tag): TagPair => [skillId, tag]),
      );
      const id = insertChange(db, clock().toISOString(), {
        kind: remove ? 'tag-remove' : 'tag-add',
        tags: list,
      });
      const changed = [...new Set(pairs.map(([skillId]) => skillId))];
      return { count, change: fillChange(db, id, changed, pairs) };
    })
    .immediate();
}

/** parse.skills with `bulk`: the job's history rows carry its id, so the change only names the job and the skills. */
export function reparseRecorded(db: Db, at: string, jobId: string, skillIds: number[]): BulkChange {
  return findChange(db, insertChange(db, at, { kind: 'reparse', jobId, skillIds }));
}
