// Replay and what-if: recompute a stored trace after edits to states, sub-tasks, skill states or single scores.
// Scores come from the trace (and a memo) first; only pairs whose inputs changed go to the scorer.
import { CuratorError } from '../../shared/errors';
import { skillDocument } from './documents';
import { embedderInstructions, instructions, type Instruction } from './instructions';
import { pairKey, type ScoreMemo, type ScoreProvider } from './scores';
import { selectSkills } from './select';
import type { ScoreUse, SelectionInput, SelectionTrace, TraceEdit } from './trace-types';

export interface ReplayOptions {
  /** Scores to share with other replays; filled with what the trace recorded and what gets scored. */
  memo?: ScoreMemo;
  clock?: () => number;
  signal?: AbortSignal;
}

function applyTextEdit(input: SelectionInput, edit: TraceEdit): void {
  if (edit.kind === 'state' || edit.kind === 'subtask') {
    const list = edit.kind === 'state' ? input.parse?.states : input.parse?.subtasks;
    if (!list || edit.index < 0 || edit.index >= list.length)
      throw new CuratorError('INVALID_ARGUMENT', `The trace has no ${edit.kind} ${edit.index}`);
    list[edit.index] = edit.text;
  } else if (edit.kind === 'skill-states') {
    const c = input.candidates.find((x) => x.name === edit.name);
    if (!c) throw new CuratorError('INVALID_ARGUMENT', `${edit.name} is not a candidate of this trace`);
    const now = c.states ?? { precondition: null, completion: c.description };
    c.states = {
      precondition: edit.precondition === undefined ? now.precondition : edit.precondition,
      completion: edit.completion ?? now.completion,
    };
  }
}

function overrideKey(
  input: SelectionInput,
  edit: Extract<TraceEdit, { kind: 'score' }>,
  instructionFor: (use: ScoreUse) => Instruction,
): string {
  const c = input.candidates.find((x) => x.name === edit.skill);
  if (!c) throw new CuratorError('INVALID_ARGUMENT', `${edit.skill} is not a candidate of this trace`);
  if (edit.use === 'relevance')
    return pairKey(instructionFor('relevance').version, input.task, skillDocument(c));
  if (edit.use === 'stage-fit')
    return pairKey(instructionFor('stage-fit').version, edit.tau, skillDocument(c));
  const state = input.parse?.states[edit.state];
  if (state === undefined) throw new CuratorError('INVALID_ARGUMENT', `The trace has no state ${edit.state}`);
  const doc = edit.side === 'precondition' ? c.states?.precondition : (c.states?.completion ?? c.description);
  if (doc === null || doc === undefined)
    throw new CuratorError('INVALID_ARGUMENT', `${edit.skill} has no precondition to align (it is None)`);
  return pairKey(instructionFor('align').version, state, doc);
}

/** The recorded scores of a trace, by pair key; scores made under another instruction version are left out. */
export function recordedScores(trace: SelectionTrace, memo: ScoreMemo = new Map()): ScoreMemo {
  const current = new Set(
    [...Object.values(instructions), ...Object.values(embedderInstructions)].map((i) => i.version),
  );
  for (const s of trace.scores) {
    if (!current.has(s.version)) continue;
    const doc = typeof s.doc === 'string' ? s.doc : skillDocument(trace.input.candidates[s.doc.candidate]!);
    memo.set(pairKey(s.version, s.query, doc), {
      r: s.r,
      ...(s.truncated ? { truncated: true } : {}),
      ...(s.override ? { override: true } : {}),
    });
  }
  return memo;
}

export async function replaySelection(
  trace: SelectionTrace,
  edits: readonly TraceEdit[],
  scorer: ScoreProvider | null,
  options: ReplayOptions = {},
): Promise<SelectionTrace> {
  const input = structuredClone(trace.input);
  for (const edit of edits) applyTextEdit(input, edit);
  const memo = recordedScores(trace, options.memo);
  // The instructions the trace was scored under: the scorer's own, or the embedder's where the trace says it scored.
  const instructionFor = (use: ScoreUse): Instruction =>
    scorer?.instructionFor?.(use) ??
    (trace.scorers?.[use]?.tier === 'embedder' ? embedderInstructions[use] : instructions[use]);
  for (const edit of edits)
    if (edit.kind === 'score') {
      if (!Number.isFinite(edit.r))
        throw new CuratorError('INVALID_ARGUMENT', `A score must be a finite number`);
      memo.set(overrideKey(input, edit, instructionFor), { r: edit.r + 0, override: true });
    }

  const recordedId = trace.models.crossEncoder;
  const provider: ScoreProvider = {
    id: recordedId ?? scorer?.id ?? 'none',
    instructionFor,
    ...(scorer?.scorerFor || trace.scorers
      ? {
          scorerFor: (use: ScoreUse) =>
            scorer?.scorerFor?.(use) ?? {
              tier: 'cross-encoder' as const,
              engine: recordedId ?? 'none',
              instruction: instructionFor(use).version,
              ...trace.scorers?.[use],
            },
        }
      : {}),
    score: async (instruction, pairs, onPairs) => {
      if (!scorer)
        throw new CuratorError(
          'UNAVAILABLE',
          `The edits need ${pairs.length} new score(s) and no scorer is available`,
        );
      return scorer.score(instruction, pairs, onPairs);
    },
  };
  const replayed = await selectSkills(input, provider, {
    variant: trace.variant,
    k: trace.k ?? undefined,
    prune: trace.options.prune,
    batchSize: trace.options.batchSize,
    // Traces made before the alignment cut aligned every edge.
    alignRound: trace.options.alignRound ?? 0,
    maxTokens: trace.options.maxTokens,
    llmBodyChars: trace.options.llmBodyChars,
    abstainBelow: trace.options.abstainBelow,
    llmAnswer: trace.llm?.raw,
    llmModel: trace.models.llm,
    recallModel: trace.models.recall,
    memo,
    clock: options.clock,
    signal: options.signal,
    preset: trace.preset,
  });
  if (scorer && recordedId && scorer.id !== recordedId && replayed.execution.pairsScored > 0)
    replayed.notes.push(`New scores came from ${scorer.id}; the recorded ones from ${recordedId}`);
  return { ...replayed, replay: { edits: [...edits] } };
}
