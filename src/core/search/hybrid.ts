// Library search in three modes: keyword (FTS5), dense (vector recall, or BM25 over the recall text when no vector
// engine is set), and hybrid (reciprocal-rank fusion of the two). Every hit says which list ranked it where.
import { CuratorError } from '../../shared/errors';
import { lexicalRecall, lexicalRecallEngine } from '../models/lexical/lexical-recall';
import type { Embedder } from '../models/ports';
import type { Db } from '../store/db';
import type { SkillFilter } from '../store/library-filter';
import type { SkillSummary } from '../store/library-repo';
import { denseRecall } from './dense';
import { exactNameIds, searchKeyword } from './keyword';
import { skillSummaries } from './skill-filter';
import { vectorIndexStaleReason } from './vector-index';

export type SearchMode = 'keyword' | 'dense' | 'hybrid';

export const keywordEngine = 'keyword:fts5-bm25';
/** The k of reciprocal-rank fusion: score = sum over lists of 1 / (k + rank). 60 is the value of the RRF paper. */
export const rrfK = 60;

export interface SearchDeps {
  db: Db;
  /** The vector engine; without one (or with one that makes no vectors) dense search is BM25 over the recall text. */
  embedder?: Embedder;
  /** Query instruction for the embedder (settings.selection.recallInstruction). */
  recallInstruction?: string;
}

export interface SearchRequest {
  query: string;
  mode?: SearchMode;
  filters?: SkillFilter;
  /** Hits to return, 1-200; default 20. */
  limit?: number;
  signal?: AbortSignal;
}

export interface SearchHit {
  skill: SkillSummary;
  /** Keyword: BM25; dense: cosine (or BM25 for the lexical engine); hybrid: the RRF sum. */
  score: number;
  /** Keyword hits carry FTS5's highlighted excerpt (\u0002 ... \u0003); others the description. */
  snippet: string;
  /** 1-based rank of the hit in each list that contributed. */
  ranks: { keyword?: number; dense?: number };
}

export interface SearchResult {
  mode: SearchMode;
  /** Which engines produced the hits, e.g. 'keyword:fts5-bm25', 'lexical:bm25', a model id, or 'rrf(a + b)'. */
  engine: string;
  hits: SearchHit[];
  /** Said to the user beside the hits, e.g. that the vector index is stale. */
  notice?: string;
}

interface Ranked {
  skillId: number;
  score: number;
  snippet?: string;
}

function keywordList(db: Db, query: string, filters: SkillFilter, depth: number): Ranked[] {
  return searchKeyword(db, { ...filters, query, limit: Math.min(200, depth) }).hits.map((h) => ({
    skillId: h.skill.id,
    score: h.score,
    snippet: h.snippet,
  }));
}

async function denseList(
  deps: SearchDeps,
  req: SearchRequest,
  depth: number,
): Promise<{ list: Ranked[]; engine: string; notice?: string }> {
  const e = deps.embedder;
  if (!e || e.dim <= 0) {
    const list = lexicalRecall(deps.db, req.query, depth, req.filters).map((c) => ({
      skillId: c.skillId,
      score: c.score,
    }));
    return { list, engine: lexicalRecallEngine };
  }
  // Only the O(1) check here: counting pending skills hashes every recall text, too slow for each search.
  const staleReason = vectorIndexStaleReason(deps.db, e);
  const notice = staleReason
    ? `Vector index: ${staleReason}. Build the index to bring it up to date.`
    : undefined;
  const hits = await denseRecall(deps.db, e, req.query, depth, req.filters, {
    instruction: deps.recallInstruction,
    signal: req.signal,
  });
  return { list: hits.map((h) => ({ skillId: h.skillId, score: h.cosine })), engine: e.id, notice };
}

function exactFirst<T extends { skillId: number; score: number; ranks: SearchHit['ranks'] }>(
  exact: readonly number[],
  ranked: readonly T[],
): (T | { skillId: number; score: number; ranks: SearchHit['ranks'] })[] {
  if (exact.length === 0) return [...ranked];
  const first = exact.map(
    (id) => ranked.find((r) => r.skillId === id) ?? { skillId: id, score: 0, ranks: {} },
  );
  return [...first, ...ranked.filter((r) => !exact.includes(r.skillId))];
}

/** Reciprocal-rank fusion: each list adds 1 / (rrfK + rank); ties go to the better best rank, then the smaller id. */
export function fuseRanks(
  lists: Record<'keyword' | 'dense', readonly { skillId: number }[]>,
): { skillId: number; score: number; ranks: SearchHit['ranks'] }[] {
  const fused = new Map<number, { skillId: number; score: number; ranks: SearchHit['ranks'] }>();
  for (const key of ['keyword', 'dense'] as const) {
    lists[key].forEach((item, i) => {
      const entry = fused.get(item.skillId) ?? { skillId: item.skillId, score: 0, ranks: {} };
      entry.score += 1 / (rrfK + i + 1);
      entry.ranks[key] = i + 1;
      fused.set(item.skillId, entry);
    });
  }
  const best = (r: SearchHit['ranks']) => Math.min(r.keyword ?? Infinity, r.dense ?? Infinity);
  return [...fused.values()].sort(
    (a, b) => b.score - a.score || best(a.ranks) - best(b.ranks) || a.skillId - b.skillId,
  );
}

export async function searchSkills(deps: SearchDeps, req: SearchRequest): Promise<SearchResult> {
  const mode = req.mode ?? 'keyword';
  const limit = req.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    throw new CuratorError('INVALID_ARGUMENT', 'limit must be 1-200');
  const filters = req.filters ?? {};
  const { db } = deps;

  let ranked: { skillId: number; score: number; ranks: SearchHit['ranks']; snippet?: string }[];
  let engine: string;
  let notice: string | undefined;
  if (mode === 'keyword') {
    ranked = keywordList(db, req.query, filters, limit).map((h, i) => ({ ...h, ranks: { keyword: i + 1 } }));
    engine = keywordEngine;
  } else if (mode === 'dense') {
    const d = await denseList(deps, { ...req, filters }, limit);
    ranked = d.list.map((h, i) => ({ ...h, ranks: { dense: i + 1 } }));
    engine = d.engine;
    notice = d.notice;
  } else if (mode === 'hybrid') {
    // Fuse deeper lists than asked for, so a skill ranked modestly by both can still rise into the answer.
    const depth = Math.max(50, 2 * limit);
    const keyword = keywordList(db, req.query, filters, depth);
    const d = await denseList(deps, { ...req, filters }, depth);
    const snippets = new Map(keyword.map((h) => [h.skillId, h.snippet]));
    ranked = fuseRanks({ keyword, dense: d.list })
      .slice(0, limit)
      .map((f) => ({ ...f, snippet: snippets.get(f.skillId) }));
    engine = `rrf(${keywordEngine} + ${d.engine})`;
    notice = d.notice;
  } else {
    throw new CuratorError('INVALID_ARGUMENT', `Unknown search mode "${String(mode)}"`);
  }
  // A skill's exact name (or its words) finds that skill first in every mode; keyword search already puts it there.
  if (mode !== 'keyword') ranked = exactFirst(exactNameIds(db, { ...filters, query: req.query }), ranked);

  const summaries = skillSummaries(
    db,
    ranked.map((r) => r.skillId),
  );
  const hits: SearchHit[] = [];
  for (const r of ranked.slice(0, limit)) {
    const skill = summaries.get(r.skillId);
    if (skill) hits.push({ skill, score: r.score, snippet: r.snippet ?? skill.description, ranks: r.ranks });
  }
  return notice === undefined ? { mode, engine, hits } : { mode, engine, hits, notice };
}
