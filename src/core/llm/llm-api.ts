// The LLM part of the API (shared/api/llm.ts) over the core context: endpoint test, API key, parsing jobs, task
// parsing and the review of states. core/api/llm-service.ts can return this as it is.
import type { LlmApi } from '../../shared/api/llm';
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { schema } from '../zod';
import {
  editStates,
  getStates,
  nextForReview,
  revertStates,
  stateHistory,
  verifyStates,
} from '../states/skill-states';
import { assertVerifyAcknowledged } from '../states/verify-audit-check';
import { reparseRecorded } from '../bulk/bulk-service';
import { createLlmClient } from './client';
import { parseSkills, type ParseSkillsParams } from './parse-skills';
import { parseTask } from './parse-task';
import type { LlmClient } from './ports';
import { parseLlmSettings, type ApiKeyProvider, type LlmEndpointSettings } from './settings';
import { estimateParse } from './parse-estimate';
import { listModels, testConnection } from './test-connection';

export const PARSE_SKILLS_JOB = 'parse.skills';

const parseSkillsParams = schema((z) =>
  z
    .object({
      only: z.enum(['unparsed', 'failed', 'all']).optional(),
      ids: z.array(z.number().int().positive()).max(100_000).optional(),
      force: z.boolean().optional(),
      replace: z.boolean().optional(),
      bulk: z.boolean().optional(),
    })
    .refine((p) => !p.replace || (p.ids !== undefined && p.ids.length > 0), {
      message: 'replace needs ids: name the skills whose edited or verified states may be replaced',
    }),
);

const skillId = schema((z) => z.number().int().positive());

/** Values typed in Settings but not saved yet, laid over the saved ones; anything but a plain object is ignored. */
function overlay(draft: unknown): Record<string, unknown> {
  return draft && typeof draft === 'object' && !Array.isArray(draft)
    ? (draft as Record<string, unknown>)
    : {};
}

export function createLlmApi(ctx: CoreContext): Omit<LlmApi, 'states.import' | 'states.export'> {
  const apiKey: ApiKeyProvider = async () => (await ctx.secrets.getApiKey()) ?? undefined;
  const endpoint = (draft?: Record<string, unknown>): LlmEndpointSettings =>
    parseLlmSettings({ ...ctx.settings.get().llm, ...overlay(draft) });
  const client = (): LlmClient =>
    createLlmClient({ settings: endpoint(), apiKey, logger: ctx.logger, clock: ctx.clock });
  const changed = (skillIds: number[]) => ctx.events.emit({ type: 'states.changed', skillIds });
  const id = (value: unknown) => {
    const parsed = skillId().safeParse(value);
    if (!parsed.success)
      throw new CuratorError('INVALID_ARGUMENT', 'skillId must be a positive whole number');
    return parsed.data;
  };

  // Registered here so that an interrupted parsing job can be resumed after a restart.
  ctx.jobs.register<ParseSkillsParams>(PARSE_SKILLS_JOB, (params, job) =>
    parseSkills(
      { db: ctx.db, llm: client(), clock: ctx.clock, logger: ctx.logger, onChanged: changed },
      params,
      job,
    ),
  );

  return {
    'llm.test': async (req) => {
      let settings: LlmEndpointSettings;
      try {
        settings = endpoint(req?.llm);
      } catch (error) {
        const message = error instanceof CuratorError ? error.message : String(error);
        return { ok: false, message: `${message}. Set the endpoint's base URL and model in Settings.` };
      }
      return testConnection(settings, apiKey, { clock: ctx.clock });
    },
    'llm.models': async (req) => {
      let settings: LlmEndpointSettings;
      try {
        // Listing needs only the address: a model not chosen yet is what the list is for.
        settings = parseLlmSettings({ ...ctx.settings.get().llm, ...overlay(req?.llm), model: 'any' });
      } catch (error) {
        return { models: [], message: error instanceof CuratorError ? error.message : String(error) };
      }
      try {
        const models = await listModels(settings, apiKey);
        return models.length > 0
          ? { models: [...new Set(models)].sort() }
          : { models: [], message: `${settings.baseURL}/models listed no models; type the model's name.` };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return { models: [], message: `Could not reach ${settings.baseURL}/models (${reason}).` };
      }
    },
    'parse.estimate': async (req) => {
      const params = parseSkillsParams().safeParse(req ?? {});
      if (!params.success)
        throw new CuratorError('INVALID_ARGUMENT', params.error.issues.map((i) => i.message).join('; '));
      // Prices and the model come from Settings; an endpoint not set up yet still gets a token count.
      const saved = ctx.settings.get().llm;
      const settings = parseLlmSettings({ ...saved, model: saved.model || 'unset' });
      return estimateParse(ctx.db, settings, params.data);
    },
    'llm.setApiKey': async (req) => {
      const key = typeof req.apiKey === 'string' ? req.apiKey.trim() || null : null;
      await ctx.secrets.setApiKey(key);
      ctx.logger.info('LLM API key updated', { stored: key !== null });
      return { stored: key !== null };
    },
    'parse.skills': async (req) => {
      const params = parseSkillsParams().safeParse(req ?? {});
      if (!params.success) {
        throw new CuratorError(
          'INVALID_ARGUMENT',
          `parse.skills: ${params.error.issues.map((i) => i.message).join('; ')}`,
        );
      }
      endpoint(); // refuse to start a job that cannot send anything
      const running = ctx.jobs.list('running').find((j) => j.kind === PARSE_SKILLS_JOB);
      if (running) {
        throw new CuratorError(
          'CONFLICT',
          `A skill-parsing job is already running (${running.id}); wait for it or cancel it`,
          {
            jobId: running.id,
          },
        );
      }
      const { bulk, ...scope } = params.data;
      const job = ctx.jobs.start(PARSE_SKILLS_JOB, scope);
      // The Library's bulk Re-parse: the job's history rows carry its id, which the bulk change names for Undo.
      if (bulk) reparseRecorded(ctx.db, ctx.clock().toISOString(), job.id, scope.ids ?? []);
      return job;
    },
    'parse.task': async (req) => {
      let llm: LlmClient | undefined;
      try {
        llm = client();
      } catch {
        llm = undefined; // no endpoint set up: stored and hand-typed parses still work
      }
      return parseTask({ db: ctx.db, llm, clock: ctx.clock, logger: ctx.logger }, req);
    },
    'states.get': async (req) => getStates(ctx.db, id(req.skillId)),
    'states.edit': async (req) => {
      const states = editStates(ctx.db, ctx.clock, id(req.skillId), {
        precondition: req.precondition,
        completion: req.completion,
      });
      changed([states.skillId]);
      return states;
    },
    'states.verify': async (req) => {
      assertVerifyAcknowledged(ctx.db, [id(req.skillId)], req.acknowledgeAudit);
      const states = verifyStates(ctx.db, ctx.clock, id(req.skillId));
      changed([states.skillId]);
      return states;
    },
    'states.history': async (req) => stateHistory(ctx.db, id(req.skillId)),
    'states.revert': async (req) => {
      const states = revertStates(ctx.db, ctx.clock, id(req.skillId), Number(req.historyId));
      changed([states.skillId]);
      return states;
    },
    'states.next': async (req) => nextForReview(ctx.db, req ?? {}),
  };
}
