// BM25 over a collection of term bags, and the background of a query: the mean and spread of its scores over every
// document of the collection, which the calibrated cross-scorer standardises against.

export interface TermBag {
  counts: ReadonlyMap<string, number>;
  /** Number of terms (with repeats). */
  length: number;
}

export function bag(counts: ReadonlyMap<string, number>): TermBag {
  let length = 0;
  for (const n of counts.values()) length += n;
  return { counts, length };
}

export interface Bm25Params {
  /** Term-frequency saturation. */
  k1: number;
  /** Length normalisation (0: none, 1: full). */
  b: number;
}

export interface Background {
  mean: number;
  sd: number;
  /** The largest score any document could get for the query (every term saturated, shortest possible document). */
  ceiling: number;
}

/** Bounded memo: cleared when full, so memory stays flat whatever the traffic. */
export class Memo<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly limit: number) {}
  has(key: string): boolean {
    return this.map.has(key);
  }
  get(key: string, make: () => V): V {
    let v = this.map.get(key);
    if (v === undefined) {
      if (this.map.size >= this.limit) this.map.clear();
      v = make();
      this.map.set(key, v);
    }
    return v;
  }
}

/** A whole library's statistics, for a collection that holds only a sample of its documents. */
export interface CollectionStatistics {
  size: number;
  df(term: string): number;
  averageLength: number;
}

export class Bm25Collection {
  private readonly df = new Map<string, number>();
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  readonly averageLength: number;
  private readonly backgrounds = new Memo<Background>(4096);

  /**
   * `stats`: when the documents are a sample of a larger collection, its IDF and average length; the backgrounds are
   * then the sample's mean and spread.
   */
  constructor(
    /** The documents held (the whole collection, or its sample). */
    readonly docs: readonly TermBag[],
    private readonly params: Bm25Params,
    private readonly stats?: CollectionStatistics,
  ) {
    let total = 0;
    docs.forEach((d, doc) => {
      total += d.length;
      for (const [term, tf] of d.counts) {
        this.df.set(term, (this.df.get(term) ?? 0) + 1);
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = []));
        list.push({ doc, tf });
      }
    });
    this.averageLength = stats?.averageLength ?? (docs.length > 0 ? Math.max(1, total / docs.length) : 1);
  }

  get size(): number {
    return this.stats?.size ?? this.docs.length;
  }

  /** Robertson–Spärck Jones IDF, kept positive; a term no document has gets the largest value. */
  idf(term: string): number {
    const df = this.stats ? this.stats.df(term) : (this.df.get(term) ?? 0);
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  private tfPart(tf: number, length: number): number {
    const { k1, b } = this.params;
    return (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / this.averageLength));
  }

  /** BM25 of the (distinct) query terms against any bag, with this collection's statistics. */
  score(queryTerms: readonly string[], doc: TermBag): number {
    let s = 0;
    for (const t of queryTerms) {
      const tf = doc.counts.get(t);
      if (tf) s += this.idf(t) * this.tfPart(tf, doc.length);
    }
    return s;
  }

  /** Mean and standard deviation of the query's BM25 over every document of the collection (memoised per query). */
  background(queryTerms: readonly string[]): Background {
    return this.backgrounds.get(queryTerms.join('\u0001'), () => {
      const n = this.docs.length;
      const scores = new Float64Array(n);
      let ceiling = 0;
      for (const t of queryTerms) {
        const w = this.idf(t);
        ceiling += w * (this.params.k1 + 1);
        for (const p of this.postings.get(t) ?? [])
          scores[p.doc]! += w * this.tfPart(p.tf, this.docs[p.doc]!.length);
      }
      let sum = 0;
      let squares = 0;
      for (const s of scores) {
        sum += s;
        squares += s * s;
      }
      const mean = n > 0 ? sum / n : 0;
      const variance = n > 0 ? Math.max(0, squares / n - mean * mean) : 0;
      return { mean, sd: Math.sqrt(variance), ceiling };
    });
  }
}
