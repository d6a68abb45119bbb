// The instruction behind each use of r(a, b) (METHOD.md "Scorers"), versioned: a new text needs a new version, which
// changes every cache key made with it and is recorded in each trace.
import type { InstructionRef, ScoreUse } from './trace-types';

export interface Instruction extends InstructionRef {
  text: string;
}

export const instructions: Record<ScoreUse, Instruction> = {
  align: {
    use: 'align',
    version: 'align/1',
    text: 'Given a state of an agent task, judge whether the state described by the Document matches it',
  },
  relevance: {
    use: 'relevance',
    version: 'relevance/1',
    text: 'Given an agent task, judge whether the skill described by the Document helps to complete the task',
  },
  'stage-fit': {
    use: 'stage-fit',
    version: 'stage-fit/1',
    text: 'Given one stage of an agent task, judge whether the skill described by the Document carries out this stage',
  },
};

/**
 * The embedder's query instruction per use (the fast preset): Qwen3-Embedding wraps queries as
 * `Instruct: <instruction>\nQuery:<text>` and embeds documents bare, so the instruction says what to retrieve. Kept
 * short on purpose: the instruction is embedded with every task-side text, and it is most of a fast selection's tokens.
 */
export const embedderInstructions: Record<ScoreUse, Instruction> = {
  align: {
    use: 'align',
    version: 'embed-align/1',
    text: 'Find the state that matches this task state',
  },
  relevance: {
    use: 'relevance',
    version: 'embed-relevance/1',
    text: 'Find the skill that helps complete this task',
  },
  'stage-fit': {
    use: 'stage-fit',
    version: 'embed-stage-fit/1',
    text: 'Find the skill that carries out this task stage',
  },
};

export function instructionVersions(): Record<ScoreUse, string> {
  return {
    align: instructions.align.version,
    relevance: instructions.relevance.version,
    'stage-fit': instructions['stage-fit'].version,
  };
}
