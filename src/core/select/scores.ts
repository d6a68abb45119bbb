// Scores r(a, b) for one selection: the provider port, sigma/log-sigma, and the book that serves each pair once
// (from known scores first: a recorded trace, a memo shared across variants) and records every score used.
import type { ScorePair } from '../models/ports';
import type { ScorerRef } from '../../shared/presets';
import type { Instruction } from './instructions';
import type { RecordedScore, ScoreUse } from './trace-types';
import { approxTokens } from './documents';
import { CuratorError } from '../../shared/errors';

export type ScoreValue = number | { r: number; truncated?: boolean };

/** r(a, b) for a batch of pairs under one instruction, in input order. Adapters wrap a CrossEncoder (and its cache). */
export interface ScoreProvider {
  readonly id: string;
  /** The precision of the engine's weights, for the trace (ScorerRef.weights). */
  readonly weights?: string;
  /** `onPairs(done)`: pairs of this batch scored so far, for progress. */
  score(
    instruction: Instruction,
    pairs: ScorePair[],
    onPairs?: (done: number) => void,
  ): Promise<ScoreValue[]>;
  /** The instruction this scorer is given for a use, when not the cross-encoder's (the embedder has its own). */
  instructionFor?(use: ScoreUse): Instruction;
  /** Which scorer serves a use (a preset), for the trace. */
  scorerFor?(use: ScoreUse): ScorerRef;
}

export interface KnownScore {
  r: number;
  truncated?: boolean;
  override?: boolean;
}

/** Scores already known, by pairKey; shared between variants of one task so a pair is scored once. */
export type ScoreMemo = Map<string, KnownScore>;

export function pairKey(version: string, query: string, document: string): string {
  return `${version}\u0001${query}\u0001${document}`;
}

export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** log sigma(x), computed without overflow; always <= 0. */
export function logSigmoid(x: number): number {
  return x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x));
}

export interface ScoreRequest {
  query: string;
  /** A text, or a candidate index whose skill document is used. */
  doc: string | { candidate: number };
}

const templateTokens = 40;

export class ScoreBook {
  readonly recorded: RecordedScore[] = [];
  private readonly used = new Set<string>();
  pairsScored = 0;
  pairsReused = 0;
  documentTokens = 0;
  scoringMs = 0;

  constructor(
    private readonly provider: ScoreProvider | null,
    private readonly documents: readonly string[],
    private readonly known: ScoreMemo,
    private readonly maxTokens: number,
    private readonly clock: () => number,
    /** Pairs newly scored (sent to the scorer) so far, as they complete. */
    private readonly onScored?: (pairsScored: number) => void,
  ) {}

  get pairs(): number {
    return this.used.size;
  }

  /** r for each request, in order; each distinct pair is scored at most once per book. */
  async scores(asked: Instruction, requests: ScoreRequest[]): Promise<number[]> {
    const instruction = this.provider?.instructionFor?.(asked.use) ?? asked;
    const texts = requests.map((q) => ({ query: q.query, document: this.documentText(q.doc) }));
    const keys = texts.map((t) => pairKey(instruction.version, t.query, t.document));
    const missing = new Map<string, ScorePair>();
    keys.forEach((key, i) => {
      if (!this.known.has(key) && !missing.has(key)) missing.set(key, texts[i]!);
    });
    if (missing.size > 0) await this.fetch(instruction, missing);
    return keys.map((key, i) => {
      const score = this.known.get(key)!;
      if (!this.used.has(key)) {
        this.used.add(key);
        if (!missing.has(key)) this.pairsReused += 1;
        const { query, document } = texts[i]!;
        this.documentTokens += Math.min(
          this.maxTokens,
          templateTokens + approxTokens(instruction.text + query + document),
        );
        this.recorded.push({
          use: instruction.use,
          version: instruction.version,
          query,
          doc: requests[i]!.doc,
          r: score.r,
          ...(score.truncated ? { truncated: true } : {}),
          ...(score.override ? { override: true } : {}),
        });
      }
      return score.r;
    });
  }

  private async fetch(instruction: Instruction, missing: Map<string, ScorePair>): Promise<void> {
    if (!this.provider)
      throw new CuratorError(
        'UNAVAILABLE',
        `No scorer for ${missing.size} pair(s) under ${instruction.version}`,
      );
    const started = this.clock();
    const before = this.pairsScored;
    const values = await this.provider.score(instruction, [...missing.values()], (done) =>
      this.onScored?.(before + done),
    );
    this.scoringMs += this.clock() - started;
    if (values.length !== missing.size)
      throw new CuratorError(
        'MODEL_ERROR',
        `The scorer returned ${values.length} scores for ${missing.size} pairs`,
      );
    [...missing.keys()].forEach((key, i) => {
      const v = values[i]!;
      // + 0 turns -0 into 0 so a trace survives JSON unchanged; non-finite scores would not survive it at all.
      const r = (typeof v === 'number' ? v : v.r) + 0;
      if (!Number.isFinite(r))
        throw new CuratorError('MODEL_ERROR', `The scorer returned ${r} under ${instruction.version}`);
      this.known.set(key, typeof v === 'number' || !v.truncated ? { r } : { r, truncated: true });
    });
    this.pairsScored += missing.size;
    this.onScored?.(this.pairsScored);
  }

  documentText(doc: string | { candidate: number }): string {
    if (typeof doc === 'string') return doc;
    const text = this.documents[doc.candidate];
    if (text === undefined) throw new Error(`No candidate ${doc.candidate}`);
    return text;
  }
}
