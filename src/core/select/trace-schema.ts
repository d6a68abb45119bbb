// Checks a trace read from a file before a replay uses it: the parts replay reads must have the right shape.
import { CuratorError } from '../../shared/errors';
import { schema } from '../zod';
import { TRACE_VERSION, variants, type SelectionTrace } from './trace-types';

const replayable = schema((z) => {
  const states = z.object({ precondition: z.string().nullable(), completion: z.string() });
  const candidate = z.object({
    skillId: z.number().nullable(),
    name: z.string(),
    description: z.string(),
    body: z.string(),
    recallScore: z.number(),
    states: states.nullable(),
  });
  return z.object({
    traceVersion: z.literal(TRACE_VERSION),
    variant: z.enum(variants),
    k: z.number().int().positive().nullable(),
    input: z.object({
      task: z.string(),
      parse: z
        .object({
          subtasks: z.array(z.string()),
          states: z.array(z.string()),
          givenBy: z.enum(['agent', 'manual']).optional(),
        })
        .nullable(),
      candidates: z.array(candidate),
      emptyReason: z.string().optional(),
    }),
    scores: z.array(
      z.object({
        use: z.enum(['align', 'relevance', 'stage-fit']),
        version: z.string(),
        query: z.string(),
        doc: z.union([z.string(), z.object({ candidate: z.number().int().nonnegative() })]),
        r: z.number(),
      }),
    ),
    options: z.object({
      maxTokens: z.number(),
      prune: z.boolean(),
      batchSize: z.number().int().positive(),
      alignRound: z.number().int().nonnegative().optional(),
      llmBodyChars: z.number(),
      abstainBelow: z.number().optional(),
    }),
    models: z.object({
      recall: z.string().nullable(),
      crossEncoder: z.string().nullable(),
      llm: z.string().nullable(),
    }),
    llm: z.object({ raw: z.string() }).passthrough().nullable(),
  });
});

export function parseTraceJson(text: string): SelectionTrace {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new CuratorError('VALIDATION_FAILED', `The trace is not JSON: ${(e as Error).message}`);
  }
  const result = replayable().safeParse(value);
  if (!result.success)
    throw new CuratorError('VALIDATION_FAILED', 'The file is not a selection trace this build can replay', {
      issues: result.error.issues.slice(0, 10).map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  const trace = value as SelectionTrace;
  for (const s of trace.scores)
    if (typeof s.doc !== 'string' && s.doc.candidate >= trace.input.candidates.length)
      throw new CuratorError(
        'VALIDATION_FAILED',
        `A recorded score names candidate ${s.doc.candidate}, which the trace lacks`,
      );
  return trace;
}
