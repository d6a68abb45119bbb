// Keeps the fast preset's skill side current when states change: the changed skills' p_k and e_k are embedded again
// (only texts whose hash changed). Refreshes run one at a time in the background; a selection waits for the small ones
// in flight (a few edited skills) so it finds them stored, but not for a whole-library refresh after a parsing run.
// New or re-imported skills get their skill side from the index build, like their recall vectors.
import type { CoreContext } from '../context';
import { hasSkillSide, updateSkillSide } from '../search/skill-side-index';

export interface SkillSideRefresher {
  /** Queues a refresh of these skills (all skills when omitted), if the index holds a skill side for this model. */
  refresh(skillIds?: number[]): void;
  /** Resolves when no small refresh is queued or running (at once while a whole-library one is). */
  idle(): Promise<void>;
}

/** Up to this many skills a selection waits for their refresh. */
const smallRefresh = 20;

const refreshers = new WeakMap<CoreContext['db'], SkillSideRefresher>();

export function skillSideRefresher(ctx: CoreContext): SkillSideRefresher {
  const existing = refreshers.get(ctx.db);
  if (existing) return existing;
  let chain: Promise<void> = Promise.resolve();
  let largeQueued = 0;
  const refresher: SkillSideRefresher = {
    refresh(skillIds) {
      const large = !skillIds?.length || skillIds.length > smallRefresh;
      if (large) largeQueued++;
      chain = chain.then(async () => {
        const settings = ctx.settings.get();
        try {
          if (settings.engines.embedder === 'lexical') return;
          const embedder = await ctx.engines.embedder();
          const dtype = settings.models.embedder.dtype;
          if (!embedder || embedder.dim <= 0 || !hasSkillSide(ctx.db, embedder.id, dtype)) return;
          const report = await updateSkillSide(ctx.db, embedder, {
            dtype,
            skillIds: skillIds?.length ? skillIds : undefined,
          });
          if (report.embedded > 0) ctx.logger.info('Skill side of the fast preset refreshed', { ...report });
        } catch (error) {
          // The next selection embeds what is missing itself; the index build reports real failures.
          ctx.logger.warn('Could not refresh the skill side of the fast preset', {
            error: error instanceof Error ? error.message : String(error),
          });
        } finally {
          if (large) largeQueued--;
        }
      });
    },
    idle: () => (largeQueued > 0 ? Promise.resolve() : chain),
  };
  ctx.events.on((event) => {
    if (event.type === 'states.changed') refresher.refresh(event.skillIds);
  });
  refreshers.set(ctx.db, refresher);
  return refresher;
}
