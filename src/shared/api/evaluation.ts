// Label sets and evaluation runs that compare variants.
import type { JobInfo } from '../jobs';
import type { Variant } from '../trace';
import type { SelectionPreset } from '../presets';

export interface TaskMetrics {
  /** |A ∩ G| / |A|; 0 for an empty answer. */
  precision: number;
  /** |A ∩ G| / |G|. */
  recall: number;
  f1: number;
  /** The answer, as a set, equals the gold set. */
  exactMatch: boolean;
  /**
   * The first skill answered (the top of a ranking, the first stage of a graph answer) is gold or in a gold group.
   * Absent in runs stored before every variant had it, when only ranked variants did.
   */
  hitAt1?: boolean;
  /** Share of required groups with at least one member in the answer (each gold skill is its own group when none are given). */
  stageCoverage: number;
  answerSize: number;
  /** The task's gold is empty and it avoids nothing: no skill fits, and only an empty answer is right. */
  noFit?: boolean;
  /**
   * The task's gold is empty but it names skills to avoid (a should-not-trigger query for one skill, which another
   * skill may serve): it counts only in `avoidedAnswered`.
   */
  avoidOnly?: boolean;
  /** The answer names a skill the labels say must not be answered. Absent when the labels avoid nothing. */
  avoidedAnswered?: boolean;
  crossEncoderPairs: number;
  llmCalls: number;
  tokens: number;
  ms: number;
}

export interface MeanMetrics {
  /** All tasks; precision, recall, F1, exact match, Hit@1 and coverage are means over those with gold skills. */
  tasks: number;
  /** Tasks with an empty gold (no skill fits). */
  noFitTasks?: number;
  /** Share of no-fit tasks answered with nothing (a correct abstention). */
  abstainedOnNoFit?: number;
  /** Share of tasks with gold skills answered with nothing (a false abstention). */
  falseAbstentions?: number;
  /** Share of tasks with skills to avoid whose answer names one of them. */
  avoidedAnswered?: number;
  precision: number;
  recall: number;
  f1: number;
  exactMatch: number;
  hitAt1?: number;
  stageCoverage: number;
  meanAnswerSize: number;
  /** How many tasks got an answer of each size. */
  answerSizes: Record<string, number>;
  crossEncoderPairs: number;
  llmCalls: number;
  tokens: number;
  msPerTask: number;
}

export type EvalStatus = 'running' | 'done' | 'failed' | 'cancelled';

export interface EvalEngines {
  recall: string;
  crossEncoder: string | null;
  llm: string | null;
}

export interface VariantSummary extends MeanMetrics {
  variant: Variant;
  /** k of a ranked variant. */
  k?: number;
  /** Selections that failed (counted as empty answers in the means). */
  errors: number;
}

export interface EvalTaskRow extends TaskMetrics {
  itemId: string;
  task: string;
  variant: Variant;
  k?: number;
  gold: string[];
  /** The item's skills that must not be answered, where it names any. */
  avoid?: string[];
  answer: string[];
  recallAtK: number;
  selectionRunId: number | null;
  error: string | null;
}

export interface TaskDifference {
  itemId: string;
  task: string;
  gold: string[];
  recallAtK: number;
  /** Every variant's answer and F1 on this task, where not all F1 values are equal. */
  answers: { variant: Variant; k?: number; answer: string[]; f1: number }[];
}

export interface EvalReport {
  runId: number;
  setId: number;
  setName: string;
  status: EvalStatus;
  variants: Variant[];
  k: number[];
  recallK: number;
  engines: EvalEngines;
  /** Mean share of gold skills found by the recall: misses here are recall misses, not selection misses. */
  recallAtK: number;
  summary: VariantSummary[];
  tasks: EvalTaskRow[];
  differences: TaskDifference[];
  /**
   * Per-skill trigger figures for each variant (and k), present when the set has trigger-style items: some item
   * names skills to avoid, or every item with gold skills has exactly one.
   */
  triggers?: VariantTriggerFigures[];
  createdAt: string;
  finishedAt: string | null;
}

/**
 * One skill's trigger figures on a set's queries (skill-creator's should-trigger / should-not-trigger queries): a
 * should-trigger query is one whose gold names the skill, a should-not one whose `avoid` names it.
 */
export interface TriggerFigures {
  skill: string;
  shouldTrigger: number;
  /** Should-trigger queries whose answer names the skill (true positives). */
  triggered: number;
  shouldNot: number;
  /** Should-not-trigger queries whose answer names the skill (false positives). */
  falselyTriggered: number;
  /** triggered / (triggered + falselyTriggered); null when the skill was never answered on these queries. */
  precision: number | null;
  /** triggered / shouldTrigger; null without should-trigger queries. */
  recall: number | null;
}

export interface VariantTriggerFigures {
  variant: Variant;
  k?: number;
  /** By skill name. */
  skills: TriggerFigures[];
}

export interface LabelItem {
  id: string;
  task: string;
  /**
   * Empty with no `avoid`: no skill in the library fits, and the right answer is none. Empty with `avoid`: the task
   * only says which skills must not be answered.
   */
  gold: string[];
  groups?: string[][];
  /** Skills that must not be answered (a should-not-trigger query). */
  avoid?: string[];
  parse?: { subtasks: string[]; states: string[] };
  domain?: string;
}

export interface LabelSetInfo {
  id: number;
  name: string;
  itemCount: number;
  sourcePath: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The library an evaluation ran on. */
export interface EvalLibraryInfo {
  skillCount: number;
  /** sha256 over every skill's name and content hash. */
  contentDigest: string;
  /** sha256 over every skill's name, precondition and completion. */
  statesDigest: string;
  engines: { preset: string | null; recall: string; scorer: string | null; llm: string | null };
  /** The selection settings in force (recall K, token budgets, preset, calibration). */
  settings: Record<string, unknown>;
  capturedAt: string;
}

export interface MetricDelta {
  variant: Variant;
  k?: number;
  /** Present in only one of the two runs. */
  only?: 'base' | 'current';
  base: Partial<Record<ComparedMetric, number>>;
  current: Partial<Record<ComparedMetric, number>>;
  /** current − base, for metrics both runs have. */
  delta: Partial<Record<ComparedMetric, number>>;
}

export const comparedMetrics = [
  'precision',
  'recall',
  'f1',
  'exactMatch',
  'hitAt1',
  'stageCoverage',
  'meanAnswerSize',
] as const;
export type ComparedMetric = (typeof comparedMetrics)[number];

export interface TaskChange {
  itemId: string;
  task: string;
  gold: string[];
  changes: {
    variant: Variant;
    k?: number;
    before: string[];
    after: string[];
    f1Before: number;
    f1After: number;
  }[];
}

export type SkillChangeKind = 'states-edited' | 'content-changed' | 'added' | 'removed';

export interface SkillChange {
  name: string;
  skillId: number;
  changes: SkillChangeKind[];
  /** State history entries between the two runs (newest last), where the history still has them. */
  history: {
    action: string;
    at: string;
    before: { precondition: string | null; completion: string | null } | null;
    after: { precondition: string | null; completion: string | null };
  }[];
  /** The skill appears in a changed task's answers or gold. */
  inChangedTasks: string[];
}

export interface EvalComparison {
  baseRunId: number;
  runId: number;
  setId: number;
  setName: string;
  base: { createdAt: string; library: EvalLibraryInfo | null };
  current: { createdAt: string; library: EvalLibraryInfo | null };
  /** Which parts of the setup differ: 'content', 'states', 'engines', 'settings', 'skill count'. */
  setupChanges: string[];
  metrics: MetricDelta[];
  changedTasks: TaskChange[];
  /** Skills whose content or states differ between the two runs' libraries. */
  editedSkills: SkillChange[];
  /** Per variant (k) and skill, the trigger figures before and after; present when both runs have them. */
  triggers?: TriggerChange[];
}

/** A query whose outcome for a skill changed: a should-trigger query now (not) answered with it, or a should-not one. */
export interface TriggerFlip {
  itemId: string;
  task: string;
  /** true: a should-trigger query for the skill; false: a should-not-trigger one. */
  shouldTrigger: boolean;
  /** The skill was in the answer. */
  before: boolean;
  after: boolean;
}

export interface TriggerChange {
  variant: Variant;
  k?: number;
  skill: string;
  /** null: the skill has no trigger figures in that run (its queries were added or removed in between). */
  base: TriggerFigures | null;
  current: TriggerFigures | null;
  flips: TriggerFlip[];
}

export interface ConfusablePair {
  a: { name: string; skillId: number | null };
  b: { name: string; skillId: number | null };
  /** Labelled tasks where the pair was confusable. */
  tasks: string[];
  /** How: 'phi' (a stage's winner and runner-up within the φ margin), 'rho' (ranked neighbours within the ρ margin),
   * 'swap' (variants picked one or the other for the same stage). */
  kinds: ('phi' | 'rho' | 'swap')[];
  /** Smallest margin seen (φ or ρ). */
  minMargin: number | null;
  /** Either skill is gold on one of the tasks. */
  goldInvolved: boolean;
}

export interface ConfusabilityReport {
  runId: number;
  phiMargin: number;
  rhoMargin: number;
  pairs: ConfusablePair[];
}

export type EvalExportFormat = 'json' | 'markdown' | 'csv';

/**
 * The formats a label file can be in: our JSONL, a skill's `evals/evals.json` from Anthropic's skill-creator (each
 * prompt a task the skill should serve), or a skill-creator trigger query set (`query`/`prompt` with `should_trigger`)
 * for one skill.
 */
export const labelFileFormats = ['jsonl', 'evals', 'triggers'] as const;
export type LabelFileFormat = (typeof labelFileFormats)[number];

/** What a label file's import did: a new set, or the set of that name updated (its edited items kept). */
export interface LabelImportOutcome {
  set: LabelSetInfo;
  /** The format the file was read as. */
  format: LabelFileFormat;
  /** The skill a skill-creator file is for. */
  skill?: string;
  /** A set of this name was there already and was updated. */
  existed: boolean;
  added: number;
  updated: number;
  /** Items edited in the app that the file did not overwrite. */
  keptEdited: string[];
}

/** What labels.import answers: the set's info, with what the import did. */
export type LabelImportAnswer = LabelSetInfo & Omit<LabelImportOutcome, 'set'>;

/** A label set's gold skills against the library: those it lacks count as misses for every variant. */
export interface GoldCoverage {
  /** Distinct gold skills of the set. */
  total: number;
  /** Gold skills no skill of the library is named after. */
  missing: string[];
  /** Missing ones a delete still kept in the trash holds (the newest such delete), which can be restored. */
  inTrash: { name: string; deleteId: number }[];
}

export interface EvaluationApi {
  /**
   * The set's info, with what the import did. The format is read from the content (JSONL, or skill-creator's
   * evals.json or trigger queries); `skill` names the skill a skill-creator file is for where the file does not
   * (`skill_name`) and it is not at `<skill>/evals/`.
   */
  'labels.import'(req: { path: string; name?: string; skill?: string }): Promise<LabelImportAnswer>;
  /**
   * A label set as a file: JSONL (every item), or for one skill skill-creator's evals.json (items whose gold is
   * exactly that skill) or trigger queries (gold names it: should trigger; avoid names it: should not). `skill` may be
   * left out where the set has one such skill only.
   */
  'labels.export'(req: {
    id: number;
    format: LabelFileFormat;
    skill?: string;
    path?: string;
    overwrite?: boolean;
  }): Promise<{ content: string; fileName: string; path?: string; skill?: string; items: number }>;
  'labels.list'(req: Record<string, never>): Promise<LabelSetInfo[]>;
  'labels.get'(req: { id: number }): Promise<{ set: LabelSetInfo; items: LabelItem[] }>;
  'labels.saveItem'(req: { setId: number; item: LabelItem }): Promise<LabelItem>;
  /** The set's gold skills the library lacks (and those of them in the trash). */
  'labels.coverage'(req: { id: number }): Promise<GoldCoverage>;
  'eval.run'(req: {
    setId: number;
    variants: Variant[];
    k?: number[];
    recallK?: number;
    /** Default: the Settings' preset. */
    preset?: SelectionPreset;
  }): Promise<JobInfo>;
  'eval.list'(
    req: Record<string, never>,
  ): Promise<{ runId: number; setId?: number; setName: string; status: string; createdAt: string }[]>;
  'eval.show'(req: { runId: number }): Promise<EvalReport>;
  'eval.export'(req: {
    runId: number;
    format: EvalExportFormat;
    /** Write the export here (desktop save dialog, CLI) instead of returning only the content. */
    path?: string;
    /** Replace a file already at `path` (the save dialog asked); without it an existing file is refused. */
    overwrite?: boolean;
  }): Promise<{ content: string; fileName?: string; path?: string }>;
  /** Repeats the last run of a label set (same variants, k and recall K) on the library as it is now; the job's result
   * holds { runId, baseRunId }, the run to compare with. */
  'eval.rerun'(req: { setId: number; variants?: Variant[]; k?: number[] }): Promise<JobInfo>;
  /** Compares a run with an earlier run of the same label set (default: the last finished one before it). */
  'eval.compare'(req: { runId: number; baseRunId?: number }): Promise<EvalComparison>;
  /** Skill pairs the selection confuses on the run's labelled tasks, most tasks first. */
  'eval.confusability'(req: {
    runId: number;
    phiMargin?: number;
    rhoMargin?: number;
  }): Promise<ConfusabilityReport>;
  /** The library a run ran on. */
  'eval.library'(req: { runId: number }): Promise<EvalLibraryInfo | null>;
}

export const evaluationMethods = [
  'labels.import',
  'labels.list',
  'labels.get',
  'labels.saveItem',
  'labels.coverage',
  'labels.export',
  'eval.run',
  'eval.list',
  'eval.show',
  'eval.export',
  'eval.rerun',
  'eval.compare',
  'eval.confusability',
  'eval.library',
] as const;
