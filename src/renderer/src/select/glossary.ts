// Plain-language meanings of the lab's symbols and variants (METHOD.md), shared by the tooltips and the glossary.
import type { Variant } from '../../../shared/api';

export const terms = {
  recall:
    'recall / cos: how close the skill is to the task (the embedder’s cosine of name and description; without one, keyword BM25F over name, description and body): the recall keeps the K closest as candidates.',
  rho: 'ρ: how relevant the whole skill is to the whole task, as log-odds (above 0: more likely relevant than not).',
  w: 'w = σ(ρ): ρ as a probability between 0 and 1; the weight of the skill’s edge in the graph.',
  edge: 'src → tgt: the task state where the skill’s precondition fits best, and the later state its completion reaches.',
  fit: 'fit: how well the skill matches this stage’s sub-tasks, as log-odds (above 0: more likely a match).',
  phi: 'φ = log σ(ρ) + log σ(fit): relevant to the task and fitting this stage; the stage picks the largest φ (0 is the best possible).',
  in: 'In: weight of the edges that end at or before this state (the closer, the more it counts).',
  out: 'Out: weight of the edges that start at or after this state.',
  cross: 'Cross: weight of the edges that pass over this state without stopping.',
  split:
    'Split point: a state where more skills end and start than pass over it (In and Out both beat Cross); stages meet here.',
  stage: 'Stage: the sub-tasks between two split points; each stage picks one skill.',
  gold: 'Gold: a skill the label set says this task needs.',
} as const;

export const variantHelp: Record<Variant, string> = {
  full: 'full: the whole method: the graph of skill edges splits the task into stages, each stage picks its best skill.',
  'no-parse': 'no-parse: no task parsing; the candidates ranked by ρ (relevance to the whole task), top k.',
  'no-graph': 'no-graph: no edges or split; the whole task is one stage and the best φ wins.',
  'no-split': 'no-split: every sub-task is its own stage; the winners without repeats.',
  dense: 'dense: the recall’s own order (embedding similarity, or keywords without an embedder), top k.',
  llm: 'llm: an LLM reads the task and the candidates and ranks them, top k.',
};
