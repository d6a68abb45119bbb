// What selection and evaluation need from the core: the recall and cross-encoder engines in use, the task parser
// (a hand-typed or cached parse first, the LLM when one is set up) and the LLM for the LLM-as-selector variant.
import { CuratorError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { createLlmClient } from '../llm/client';
import { parseTask } from '../llm/parse-task';
import type { LlmClient } from '../llm/ports';
import { parseLlmSettings } from '../llm/settings';
import { crossEncoderScoreProvider } from '../select/score-provider';
import type { SelectionDeps } from '../select/run-selection';

function llmClient(ctx: CoreContext): LlmClient | undefined {
  const settings = ctx.settings.get().llm;
  if (settings.model.trim() === '') return undefined;
  return createLlmClient({
    settings: parseLlmSettings(settings),
    apiKey: async () => (await ctx.secrets.getApiKey()) ?? undefined,
    logger: ctx.logger,
    clock: ctx.clock,
  });
}

export async function selectionDeps(ctx: CoreContext, signal?: AbortSignal): Promise<SelectionDeps> {
  const settings = ctx.settings.get();
  const { recall, id } = await ctx.engines.recall();
  const encoder = await ctx.engines.crossEncoder();
  const llm = llmClient(ctx);
  return {
    db: ctx.db,
    recall,
    recallModel: id,
    scorer: crossEncoderScoreProvider(encoder, {
      maxTokens: settings.selection.crossEncoderMaxTokens,
      maxTokensByUse: { align: settings.selection.crossEncoderAlignMaxTokens },
      signal,
    }),
    parseTask: async (task, taskSignal) => {
      try {
        const parse = await parseTask(
          { db: ctx.db, llm, clock: ctx.clock, logger: ctx.logger },
          { task, signal: taskSignal ?? signal },
        );
        return { subtasks: parse.subtasks, states: parse.states };
      } catch (error) {
        // No LLM and no stored parse: the selection runs on the task alone and its trace says so.
        if (error instanceof CuratorError && error.code === 'UNAVAILABLE') return null;
        throw error;
      }
    },
    llm: llm
      ? async (prompt) => (await llm.complete([{ role: 'user', content: prompt }], { signal })).text
      : undefined,
    llmModel: llm ? settings.llm.model : null,
    clock: ctx.clock,
  };
}
