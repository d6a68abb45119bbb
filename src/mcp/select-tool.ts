// select_skills: SkillReranker's answer for an agent's task. The agent is itself an LLM, so it can decompose its own
// task at no extra cost; with its sub-tasks and states the whole method runs (graph, split points, stages) even when
// the curator set up no LLM endpoint. Without them, and without an LLM, the answer says it ranked by relevance alone.
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { maxGivenParseChars, maxGivenParseSubtasks, variants } from '../shared/api';
import type { SelectionTrace } from '../shared/trace';
import { logText } from './call-log';
import type { CuratorMcpContext } from './mcp-context';
import { skillUri } from './skill-content';
import { explainAnswer } from './why';
import type { TrackUsage } from './usage-recorder';

export const selectToolDescription = (rule: string): string =>
  'Choose the skills for a task with SkillReranker (recall, task graph, stages): returns the answer with one ' +
  'sentence of why per skill and the stage of the task it serves, the preset that scored it, and the run id under ' +
  'which the curator can open this selection in the lab. For a staged answer, also pass your own decomposition of ' +
  'the task: `subtasks`, the m steps in the order you would do them, and `states`, m + 1 short descriptions of the ' +
  'situation: states[0] before the first step, states[i + 1] once subtasks[i] is done. Example for "heat an apple ' +
  'and put it in the fridge": subtasks ["heat the apple", "put the apple in the fridge"], states ["an apple is ' +
  'somewhere in the room", "the apple is hot", "the hot apple is in the fridge"]. When no skill of the library ' +
  'fits the task, the answer is empty with `noSkillFits: true` and the reason: go on without a skill. ' +
  rule;

const staged = new Set(['full', 'no-graph', 'no-split']);

/** What the answer says about the decomposition it used, or that it had none. */
export function parseNote(trace: SelectionTrace): { parse: unknown; note?: string } {
  if (!staged.has(trace.variant)) return { parse: null };
  if (!trace.parse)
    return {
      parse: null,
      note:
        'No decomposition of the task was given and no LLM is set up to make one, so this answer ranks the ' +
        'skills by relevance alone (no graph, no stages). Pass `subtasks` and `states` (see the tool description) ' +
        'for a staged answer.',
    };
  const by =
    trace.parse.givenBy === 'agent' ? 'you (the calling agent)' : 'the library (stored or LLM parse)';
  return { parse: { by, subtasks: trace.parse.subtasks, states: trace.parse.states } };
}

/**
 * A selection the agent can cancel: the SDK aborts `signal` when the client sends notifications/cancelled (or the
 * connection closes), and that cancels the selection by its request id, as Ctrl+C does in the CLI.
 */
async function cancellableSelection<T>(
  mcp: CuratorMcpContext,
  signal: AbortSignal,
  start: (requestId: string) => Promise<T>,
): Promise<T> {
  const requestId = `mcp-${randomUUID()}`;
  const cancel = () => {
    mcp.calls.note(`select_skills ${requestId} cancelled by the client`);
    void mcp.select['select.cancel']({ requestId });
  };
  signal.throwIfAborted();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    return await start(requestId);
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

export function registerSelectTool(
  server: McpServer,
  mcp: CuratorMcpContext,
  track: TrackUsage,
  guarded: (run: () => Promise<CallToolResult>) => Promise<CallToolResult>,
  json: (value: unknown) => CallToolResult,
): void {
  // The bounds are said, not enforced by the schema: the core's check answers a bad parse with what to fix.
  const item = z.string().describe(`At most ${maxGivenParseChars} characters`);
  server.registerTool(
    'select_skills',
    {
      title: 'Select skills for a task',
      description: selectToolDescription(mcp.allowed.sentence),
      inputSchema: {
        task: z.string().min(1).describe('The task, in plain words'),
        subtasks: z
          .array(item)
          .optional()
          .describe(
            `Your decomposition: the m steps of the task, in order, m ≤ ${maxGivenParseSubtasks} (give states too)`,
          ),
        states: z
          .array(item)
          .optional()
          .describe('m + 1 states: before the first step, then after each step (give subtasks too)'),
        variant: z.enum(variants).optional().describe('Selection method (default full)'),
        k: z.number().int().min(1).max(20).optional().describe('How many skills, for the ranked variants'),
      },
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        if ((args.subtasks === undefined) !== (args.states === undefined))
          return {
            isError: true,
            content: [
              {
                type: 'text',
                text:
                  `error INVALID_ARGUMENT: Give both subtasks and states, or neither: ` +
                  `${args.subtasks ? 'states' : 'subtasks'} is missing`,
              },
            ],
          };
        const parse =
          args.subtasks && args.states ? { subtasks: args.subtasks, states: args.states } : undefined;
        const r = await cancellableSelection(mcp, extra.signal, (requestId) =>
          mcp.select['select.run']({
            task: args.task,
            variant: args.variant,
            k: args.k,
            preset: mcp.preset,
            requestId,
            ...(parse ? { parse, parseBy: 'agent' as const } : {}),
          }),
        );
        mcp.calls.record(
          'select_skills',
          `${logText(args.task)}${parse ? ` (${parse.subtasks.length} sub-tasks given)` : ''} → run ${r.runId}`,
        );
        track({
          tool: 'select_skills',
          query: args.task,
          runId: r.runId,
          skills: r.trace.answer.flatMap((a) =>
            a.skillId === null ? [] : [{ skillId: a.skillId, name: a.name, role: 'selected' as const }],
          ),
        });
        const { parse: used, note } = parseNote(r.trace);
        return json({
          runId: r.runId,
          variant: r.variant,
          preset: r.trace.preset ?? null,
          answer: explainAnswer(r.trace).map((p) => ({ ...p, uri: skillUri(p.name) })),
          ...(r.trace.reason ? { reason: r.trace.reason } : {}),
          ...(r.trace.abstention?.abstained
            ? {
                noSkillFits: true,
                abstention: {
                  bestCandidate: r.trace.abstention.best,
                  bestRho: r.trace.abstention.bestRho,
                  threshold: r.trace.abstention.threshold,
                },
              }
            : {}),
          parse: used,
          ...(note ? { note } : {}),
          notes: r.trace.notes,
          rule: mcp.allowed.sentence,
        });
      }),
  );
}
