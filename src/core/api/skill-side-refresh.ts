// Keeps the fast preset's skill side current: after the index is built, and whenever states or the library change,
// the changed skills' texts are embedded again (only those whose text hash changed). Refreshes run one at a time in
// the background; a selection waits for the one in flight so it never embeds skill-side texts itself.
import type { CoreContext } from '../context';
import { hasSkillSide, updateSkillSide } from '../search/skill-side-index';

export interface SkillSideRefresher {
  /** Queues a refresh of these skills (all skills when omitted), if the index holds a skill side for this model. */
  refresh(skillIds?: number[]): void;
  /** Resolves when no refresh is queued or running. */
  idle(): Promise<void>;
}

const refreshers = new WeakMap<CoreContext['db'], SkillSideRefresher>();

export function skillSideRefresher(ctx: CoreContext): SkillSideRefresher {
  const existing = refreshers.get(ctx.db);
  if (existing) return existing;
  let chain: Promise<void> = Promise.resolve();
  const refresher: SkillSideRefresher = {
    refresh(skillIds) {
      chain = chain.then(async () => {
        const settings = ctx.settings.get();
        if (settings.engines.embedder === 'lexical') return;
        try {
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
        }
      });
    },
    idle: () => chain,
  };
  ctx.events.on((event) => {
    if (event.type === 'states.changed') refresher.refresh(event.skillIds);
    else if (event.type === 'library.changed') refresher.refresh();
  });
  refreshers.set(ctx.db, refresher);
  return refresher;
}
