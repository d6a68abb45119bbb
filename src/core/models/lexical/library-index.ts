// The library as the lexical engines see it, held in memory per library file: each skill's name, description and
// body as term bags, the BM25F statistics the recall ranks by, and the two backgrounds the cross-scorer calibrates
// against. Built by library-index-cache.ts (tokenising the 530 imported zjunlp skills takes about 0.4-1 s).
import { skillDocument } from '../../select/documents';
import { bag, Bm25Collection, Memo, type Background, type TermBag } from './bm25';
import type { PersistedStatistics } from './library-stats';
import { nearDuplicates } from './near-duplicates';
import { hasExamples, termCounts, weightedTermCounts } from './text-terms';

export type Field = 'name' | 'description' | 'body';
export const fields: readonly Field[] = ['name', 'description', 'body'];

interface FieldParams {
  weight: number;
  /** Length normalisation within the field. */
  b: number;
}

/** BM25F tuning of the recall (settled on resources/sample-tasks.jsonl and resources/zjunlp-tasks.jsonl). */
export const recallParams: {
  k1: number;
  fields: Record<Field, FieldParams>;
  /**
   * Pseudo-relevance feedback: the first `keep` share of K stays as the query ranks it; the rest is ranked by the query
   * widened with `terms` words of the best `docs` skills, at up to `weight` of a query word. Only in libraries of
   * `minSkills` or more: in smaller ones the feedback lifts recall@30 too (92.5 -> 100 % on the sample tasks), but the
   * offline cross-scorer answers worse from the wider candidate lists (the demo task loses its stage order), so the
   * lists the offline preset was tuned on stay as they were.
   */
  feedback: { keep: number; docs: number; terms: number; weight: number; minSkills: number };
  /**
   * null: the body's weighted frequency joins name and description before the one saturation (BM25F). A number: the
   * body saturates apart and adds at most that share of a term's idf, so a long body that mentions many of the query's
   * words cannot outrank the skill whose name and description say what was asked (issue 26).
   */
  bodyShare: number | null;
} = {
  k1: 1.2,
  bodyShare: null,
  feedback: { keep: 2 / 3, docs: 1, terms: 20, weight: 0.5, minSkills: 1000 },
  fields: {
    name: { weight: 4, b: 0.3 },
    description: { weight: 2, b: 0.75 },
    // Bodies are long and say much that is beside the point: they add evidence, at a third of a description's weight.
    body: { weight: 0.3, b: 0.9 },
  },
};

/** BM25 tuning of the cross-scorer's backgrounds. */
export const scorerParams = { k1: 1.2, b: 0.75 };

/**
 * A skill's fields as term bags. `judged`: as the cross-scorer reads them, with words in example lists ("e.g. eggs,
 * plants") at exampleWeight; the recall reads every word in full.
 */
export function fieldBags(
  name: string,
  description: string,
  body: string,
  judged = false,
): Record<Field, TermBag> {
  const count = judged ? weightedTermCounts : termCounts;
  return {
    name: bag(termCounts(name)),
    description: bag(count(description)),
    body: bag(count(body)),
  };
}

/**
 * The fields as the cross-scorer reads them, sharing the recall's bag where a field gives no examples (most do not):
 * a large library is then tokenised about once, not twice, and held once in memory.
 */
export function judgedFields(row: Row, plain: Record<Field, TermBag>): Record<Field, TermBag> {
  const judged = (text: string, same: TermBag) => (hasExamples(text) ? bag(weightedTermCounts(text)) : same);
  return {
    name: plain.name,
    description: judged(row.description, plain.description),
    body: judged(row.body, plain.body),
  };
}

export function merge(bags: readonly TermBag[]): TermBag {
  const counts = new Map<string, number>();
  for (const b of bags) for (const [t, n] of b.counts) counts.set(t, (counts.get(t) ?? 0) + n);
  return bag(counts);
}

export interface Row {
  id: number;
  name: string;
  description: string;
  body: string;
}

export interface IndexOptions {
  /** Only the recall's ranking is asked (a large library's candidates): no scorer's bags or backgrounds. */
  recallOnly?: boolean;
  /** Bags kept from an earlier query (the same skill is tokenised once while the library is unchanged). */
  bagsOf?: (row: Row) => Record<Field, TermBag> | undefined;
}

export class LibraryIndex {
  readonly ids: number[];
  /** The fields as the recall reads them. */
  private readonly fieldBags: Record<Field, TermBag>[];
  /** The fields as the cross-scorer reads them (example lists weighed down). */
  private readonly judgedBags: Record<Field, TermBag>[];
  private readonly averages: Record<Field, number>;
  private readonly judgedAverages: Record<Field, number>;
  private readonly df = new Map<string, number>();
  private readonly postings = new Map<string, number[]>();
  private readonly backgrounds = new Memo<Background>(4096);
  /** Description + body of each skill as one bag, made when a ranking first compares the skill with another. */
  private readonly contents: (TermBag | undefined)[] = [];
  /** Skill documents as the selection writes them (select/documents.ts), so scoring one needs no tokenising. */
  private readonly byDocument = new Map<string, number>();
  /** Whole skill documents (name | description | body): the background of skill-sized documents. */
  readonly documents: Bm25Collection;
  /**
   * Sentences: each skill's name + description, and every parsed precondition and completion. The background of
   * sentence-sized documents (the states alignment compares): words every state repeats ("the robot is holding")
   * weigh little there, the words that tell states apart ("hot", "cold", "clean") weigh much.
   */
  readonly summaries: Bm25Collection;
  /** Each skill's name + description: the skills' part of `summaries`. */
  private readonly summaryBags: TermBag[];

  /**
   * `stats`: the whole library's statistics when `rows` are only part of it (a large library: the candidates of one
   * query, or the sample the backgrounds are taken over). Without, the rows are the library.
   */
  constructor(
    rows: readonly Row[],
    states: readonly string[] = [],
    private readonly stats?: PersistedStatistics,
    options: IndexOptions = {},
  ) {
    this.ids = rows.map((r) => r.id);
    this.fieldBags = rows.map((r) => options.bagsOf?.(r) ?? fieldBags(r.name, r.description, r.body));
    this.judgedBags = options.recallOnly
      ? this.fieldBags
      : rows.map((r, doc) => judgedFields(r, this.fieldBags[doc]!));
    if (!options.recallOnly) rows.forEach((r, doc) => this.byDocument.set(skillDocument(r), doc));
    this.averages = stats?.averages ?? averageLengths(this.fieldBags);
    this.judgedAverages = stats?.judgedAverages ?? averageLengths(this.judgedBags);
    // With the library's statistics the rows are one query's candidates: their postings are made per query term
    // when first asked (postingsOf), not for every word of thousands of long bodies.
    if (!stats)
      this.fieldBags.forEach((f, doc) => {
        const seen = new Set<string>();
        for (const field of fields) for (const t of f[field].counts.keys()) seen.add(t);
        for (const t of seen) {
          this.df.set(t, (this.df.get(t) ?? 0) + 1);
          let list = this.postings.get(t);
          if (!list) this.postings.set(t, (list = []));
          list.push(doc);
        }
      });
    const judged = options.recallOnly ? [] : this.judgedBags;
    this.documents = new Bm25Collection(
      judged.map((f) => merge([f.name, f.description, f.body])),
      scorerParams,
      stats && { size: stats.skills, df: stats.df, averageLength: stats.documentLength },
    );
    this.summaryBags = judged.map((f) => merge([f.name, f.description]));
    this.summaries = this.sentenceBackground(states);
  }

  private sentenceBackground(states: readonly string[]): Bm25Collection {
    const { stats } = this;
    return new Bm25Collection(
      [...this.summaryBags, ...states.map((text) => bag(termCounts(text)))],
      scorerParams,
      stats && { size: stats.sentences, df: stats.sdf, averageLength: stats.sentenceLength },
    );
  }

  /**
   * The same skills with other parsed states: everything built from the skills is shared, only the sentence background
   * is made again (a curator's edit to states must not cost tokenising every skill of a large library again). A new
   * object, so a selection still running on this one keeps the statistics it started with.
   */
  withStates(states: readonly string[], stats = this.stats): LibraryIndex {
    const next = Object.assign(Object.create(LibraryIndex.prototype) as LibraryIndex, this);
    (next as unknown as { stats?: PersistedStatistics }).stats = stats;
    (next as { summaries: Bm25Collection }).summaries = next.sentenceBackground(states);
    return next;
  }

  /** Skills in the library (more than the rows held when the statistics are the library's). */
  get size(): number {
    return this.stats?.skills ?? this.ids.length;
  }

  private idf(term: string): number {
    const df = this.stats ? this.stats.df(term) : (this.df.get(term) ?? 0);
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /** The judged fields of a library skill given its document text `name | description | body`; undefined if not one. */
  documentFields(text: string): Record<Field, TermBag> | undefined {
    const doc = this.byDocument.get(text);
    return doc === undefined ? undefined : this.judgedBags[doc];
  }

  /** BM25F of one skill-shaped document (its judged fields as term bags) for the distinct query terms. */
  fieldedScore(queryTerms: readonly string[], doc: Record<Field, TermBag>): number {
    let s = 0;
    for (const t of queryTerms) {
      const tf = fieldedTf(t, doc, this.judgedAverages);
      if (tf > 0) s += (this.idf(t) * tf) / (recallParams.k1 + tf);
    }
    return s;
  }

  /**
   * BM25F: each field's term frequency is length-normalised within the field and weighted, the weighted sum
   * saturates once per term (so a term in name and body is not counted as two independent matches).
   * Returns every skill sharing a term with the query, best first, ties by smaller id.
   */
  rank(query: string, allowed?: ReadonlySet<number>): { skillId: number; score: number }[] {
    return [
      ...this.fieldedScores(
        [...termCounts(query).keys()],
        this.fieldBags,
        this.averages,
        allowed,
        undefined,
        recallParams.bodyShare,
      ),
    ]
      .map(([doc, score]) => ({ skillId: this.ids[doc]!, score }))
      .sort((a, b) => b.score - a.score || a.skillId - b.skillId);
  }

  /**
   * The recall: the first k skills for the query, near-duplicates left out (near-duplicates.ts), so a skill copied
   * many times under other names takes one place, its best-scoring copy's. In a large library the first two thirds of K
   * stay as the query ranks them; the last third is ranked with the query widened by the words that name and describe the best skill
   * (pseudo-relevance feedback), which brings in skills a task needs without saying so ("boil water" finds the skill
   * that fetches the pot). Keeping the head in place keeps the recall's own top-1 and most of what the cross-scorer
   * sees unchanged.
   */
  rankDistinct(
    query: string,
    k: number,
    allowed?: ReadonlySet<number>,
  ): { skillId: number; score: number }[] {
    const terms = new Map([...termCounts(query).keys()].map((t) => [t, 1]));
    const { keep, docs, minSkills } = recallParams.feedback;
    const large = this.size >= minSkills;
    const first = this.distinct(terms, large ? Math.ceil(k * keep) : k, allowed);
    const rest =
      large && first.length < k
        ? this.distinct(this.widened(terms, first.slice(0, docs)), k, allowed, first).slice(first.length)
        : [];
    // The widened query scores on its own scale: the rest is scaled below the last skill kept in place, so the scores
    // still fall with the rank (the dense variant orders by them).
    const floor = first.at(-1)?.score ?? 0;
    const scale = rest.length > 0 && rest[0]!.score > floor ? floor / rest[0]!.score : 1;
    return [...first, ...rest.map((r) => ({ ...r, score: r.score * scale }))].map(({ skillId, score }) => ({
      skillId,
      score,
    }));
  }

  /** The words the feedback adds to the query (none below `feedback.minSkills`); a large library fetches their skills too. */
  feedbackTerms(query: string, k: number): string[] {
    const { keep, docs, minSkills } = recallParams.feedback;
    if (this.size < minSkills) return [];
    const terms = new Map([...termCounts(query).keys()].map((t) => [t, 1]));
    const first = this.distinct(terms, Math.ceil(k * keep));
    return [...this.widened(terms, first.slice(0, docs)).keys()].filter((t) => !terms.has(t));
  }

  /** The query terms at weight 1 and the feedback terms: the rarest words of the best skills' names and descriptions. */
  private widened(terms: ReadonlyMap<string, number>, best: readonly { doc: number }[]): Map<string, number> {
    const gain = new Map<string, number>();
    for (const { doc } of best) {
      const f = this.fieldBags[doc]!;
      for (const t of new Set([...f.name.counts.keys(), ...f.description.counts.keys()]))
        if (!terms.has(t)) gain.set(t, (gain.get(t) ?? 0) + this.idf(t));
    }
    const { terms: n, weight } = recallParams.feedback;
    const top = [...gain].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n);
    const widened = new Map(terms);
    for (const [t, g] of top) widened.set(t, (weight * g) / top[0]![1]);
    return widened;
  }

  private distinct(
    terms: ReadonlyMap<string, number>,
    k: number,
    allowed?: ReadonlySet<number>,
    placed: readonly { doc: number; skillId: number; score: number }[] = [],
  ): { doc: number; skillId: number; score: number }[] {
    const kept = [...placed];
    for (const [doc, score] of [
      ...this.fieldedScores(
        [...terms.keys()],
        this.fieldBags,
        this.averages,
        allowed,
        terms,
        recallParams.bodyShare,
      ),
    ].sort((a, b) => b[1] - a[1] || this.ids[a[0]]! - this.ids[b[0]]!)) {
      if (kept.length >= k) break;
      const content = this.content(doc);
      if (kept.some((c) => nearDuplicates(content, this.content(c.doc)))) continue;
      kept.push({ doc, skillId: this.ids[doc]!, score });
    }
    return kept;
  }

  /** The rows holding a term, in row order. */
  private postingsOf(term: string): readonly number[] {
    let list = this.postings.get(term);
    if (list === undefined) {
      // Without statistics every term's postings were made up front: a term not there is in no row.
      if (!this.stats) return [];
      list = [];
      this.fieldBags.forEach((f, doc) => {
        if (fields.some((field) => f[field].counts.has(term))) list!.push(doc);
      });
      this.postings.set(term, list);
    }
    return list;
  }

  private content(doc: number): TermBag {
    let c = this.contents[doc];
    if (!c) this.contents[doc] = c = merge([this.fieldBags[doc]!.description, this.fieldBags[doc]!.body]);
    return c;
  }

  private fieldedScores(
    queryTerms: readonly string[],
    bags: readonly Record<Field, TermBag>[],
    averages: Record<Field, number>,
    allowed?: ReadonlySet<number>,
    weights?: ReadonlyMap<string, number>,
    bodyShare: number | null = null,
  ): Map<number, number> {
    const scores = new Map<number, number>();
    const { k1 } = recallParams;
    for (const t of queryTerms) {
      const w = this.idf(t) * (weights?.get(t) ?? 1);
      for (const doc of this.postingsOf(t)) {
        if (allowed && !allowed.has(this.ids[doc]!)) continue;
        let s: number;
        if (bodyShare === null) {
          const tf = fieldedTf(t, bags[doc]!, averages);
          s = tf / (k1 + tf);
        } else {
          const head = fieldedTf(t, bags[doc]!, averages, headFields);
          const body = fieldTf(t, bags[doc]!, averages, 'body', 1);
          s = head / (k1 + head) + (bodyShare * body) / (k1 + body);
        }
        scores.set(doc, (scores.get(doc) ?? 0) + w * s);
      }
    }
    return scores;
  }

  /**
   * Mean and spread of the query's judged BM25F over the skills held: the whole library, or its sample when the
   * statistics are the library's (skills sharing no term score 0).
   */
  fieldedBackground(queryTerms: readonly string[]): Background {
    return this.backgrounds.get(queryTerms.join('\u0001'), () => {
      const n = Math.max(1, this.ids.length);
      let sum = 0;
      let squares = 0;
      for (const s of this.fieldedScores(queryTerms, this.judgedBags, this.judgedAverages).values()) {
        sum += s;
        squares += s * s;
      }
      const mean = sum / n;
      let ceiling = 0;
      for (const t of queryTerms) ceiling += this.idf(t);
      return { mean, sd: Math.sqrt(Math.max(0, squares / n - mean * mean)), ceiling };
    });
  }
}

function averageLengths(bags: readonly Record<Field, TermBag>[]): Record<Field, number> {
  const n = Math.max(1, bags.length);
  const averages = { name: 0, description: 0, body: 0 };
  for (const f of bags) for (const field of fields) averages[field] += f[field].length / n;
  for (const field of fields) averages[field] = Math.max(1, averages[field]);
  return averages;
}

const headFields: readonly Field[] = ['name', 'description'];

/** A term's BM25F frequency: per field length-normalised and weighted, summed before the one saturation. */
function fieldedTf(
  term: string,
  doc: Record<Field, TermBag>,
  averages: Record<Field, number>,
  over: readonly Field[] = fields,
): number {
  let tf = 0;
  for (const field of over) tf += fieldTf(term, doc, averages, field, recallParams.fields[field].weight);
  return tf;
}

/** One field's length-normalised frequency of a term, times `weight`. */
function fieldTf(
  term: string,
  doc: Record<Field, TermBag>,
  averages: Record<Field, number>,
  field: Field,
  weight: number,
): number {
  const n = doc[field].counts.get(term);
  if (!n) return 0;
  const { b } = recallParams.fields[field];
  return (weight * n) / (1 - b + (b * doc[field].length) / averages[field]);
}
