// The LLM part of the API: endpoint, parsing jobs, review of parsed states, and states files in and out.
import type { LlmApi } from '../../shared/api';
import type { CoreContext } from '../context';
import { createLlmApi } from '../llm/llm-api';
import { exportStatesFile } from '../states/export-states';
import { importStatesFile } from '../states/import-states';

export function createLlmService(ctx: CoreContext): LlmApi {
  return {
    ...createLlmApi(ctx),
    'states.import': async (req) => {
      const result = await importStatesFile(ctx.db, ctx.clock, req);
      ctx.events.emit({ type: 'states.changed', skillIds: [] });
      return result;
    },
    'states.export': async (req) => exportStatesFile(ctx.db, req ?? {}),
  };
}
