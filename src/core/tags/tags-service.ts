// The tags part of the API, and the bulk verify of a selection (both recorded for bulk.undo).
import type { TagsApi } from '../../shared/api/tags';
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { addTags, listTags, removeTags, tagsOf } from './tags-repo';
import { tagRecorded, verifyManyRecorded } from '../bulk/bulk-service';
import { unverifyMany } from './verify-many';

export function createTagsService(ctx: CoreContext): TagsApi {
  const changed = () => ctx.events.emit({ type: 'library.changed', reason: 'tags' });
  return {
    'tags.list': async () => listTags(ctx.db),
    'tags.of': async (req) => {
      if (!Array.isArray(req?.skillIds) || req.skillIds.some((id) => !Number.isInteger(id)))
        throw new CuratorError('INVALID_ARGUMENT', 'Give skillIds, a list of skill ids');
      const found = tagsOf(ctx.db, req.skillIds);
      return Object.fromEntries(req.skillIds.map((id) => [id, found.get(id) ?? []]));
    },
    'tags.add': async (req) => {
      if (req?.bulk) {
        const { count, change } = tagRecorded(ctx.db, ctx.clock, req.skillIds, req.tags, false);
        changed();
        return { added: count, change };
      }
      const added = addTags(ctx.db, req?.skillIds, req?.tags);
      changed();
      return { added };
    },
    'tags.remove': async (req) => {
      if (req?.bulk) {
        const { count, change } = tagRecorded(ctx.db, ctx.clock, req.skillIds, req.tags, true);
        changed();
        return { removed: count, change };
      }
      const removed = removeTags(ctx.db, req?.skillIds, req?.tags);
      changed();
      return { removed };
    },
    'states.verifyMany': async (req) => {
      const result = verifyManyRecorded(ctx.db, ctx.clock, req?.skillIds, req?.acknowledgeAudit);
      ctx.events.emit({ type: 'states.changed', skillIds: result.verified });
      return result;
    },
    'states.unverifyMany': async (req) => {
      const result = unverifyMany(ctx.db, ctx.clock, req?.skillIds);
      ctx.events.emit({ type: 'states.changed', skillIds: result.reverted });
      return result;
    },
  };
}
