// Why a selection came out as it did, in sentences built from its trace (src/core/select/explain.ts): one per picked
// skill, one per dropped candidate, one per missed gold skill, and what each contender of a stage would need to win it.

/** One stage a picked skill won, and the closest rival. */
export interface StageWin {
  /** 0-based stage index (the sentence says "stage index + 1"). */
  stage: number;
  phi: number;
  runnerUp: { candidate: number; name: string; phi: number | null } | null;
  /** phi(winner) − phi(runner-up); for a pruned runner-up a lower bound (its log σ(ρ) is used). */
  margin: number | null;
}

export interface PickWhy {
  candidate: number;
  name: string;
  skillId: number | null;
  /** The skill is in the labelled task's gold list. */
  gold?: boolean;
  /** The edge src → tgt, when the variant builds a graph. */
  edge: { src: number; tgt: number } | null;
  stages: StageWin[];
  sentence: string;
}

export interface DroppedWhy {
  candidate: number;
  name: string;
  reason: string;
  sentence: string;
}

/** not-recalled: not among the candidates; no-edge: dropped from the graph; lost-stage: won no stage; below-k:
 * ranked below the top k; not-picked: the edge-case rule or the LLM chose others. */
export type GoldLoss = 'not-recalled' | 'no-edge' | 'lost-stage' | 'below-k' | 'not-picked';

export interface GoldMissWhy {
  name: string;
  where: GoldLoss;
  /** lost-stage: the stage it came closest to winning, who won it and by how much. */
  stage?: number;
  winner?: string;
  deltaPhi?: number;
  sentence: string;
}

/** What a contender of a stage needs to win it (METHOD.md §4: the argmax of φ; ties go to the smaller index). */
export interface StageChallenger {
  candidate: number;
  name: string;
  phi: number | null;
  fit: number | null;
  /** The φ it must exceed (or reach, when its index is smaller than the winner's). */
  phiNeeded: number;
  /** The stage-fit r(τ, c) that gives that φ with its ρ unchanged; null when no fit can (log σ(ρ) is too low). */
  fitNeeded: number | null;
  sentence: string;
}

export interface StageWhy {
  stage: number;
  tau: string;
  winner: number | null;
  /** Every other contender of the stage: those a stage fit can make win first, then closest first. */
  challengers: StageChallenger[];
}

export interface SelectionWhy {
  picks: PickWhy[];
  dropped: DroppedWhy[];
  /** The gold skills of the labelled task with this text; null when the task is not labelled. */
  gold: string[] | null;
  goldMissed: GoldMissWhy[];
  stages: StageWhy[];
  /** Set when the offline (lexical) engine produced scores: what adding models would change. */
  offlineNote: string | null;
  /** Set when every skill answered has ρ below 0: likely none fits the task. */
  weakAnswerNote?: string | null;
}
