// Prompt heads kept between scoring calls. A selection scores one use in rounds (alignment in up to three, stage fit
// four documents per stage at a time), and every round used to run the same query heads again: on a K = 30 selection
// 1,335 of the 1,883 head tokens were such repeats. The head's cache is the output of the same batch-1 run on the same
// ids, so reusing it gives every row the very bits it had (docs/METHOD-notes.md, 45-48). The reranker keeps none unless
// asked (`reusedHeadBytes`): the kept heads raised a K = 30 selection's peak RSS past 2.5 GB.
import { cacheBytesPerToken, type PrefixCache } from './prefix-cache';

/**
 * Bytes of head caches kept between calls (Qwen3-0.6B fp32: 229,376 B per token, so ~440 head tokens: the three
 * stage heads of a 3-stage task, or five state heads of alignment). Heads of another instruction are dropped at once,
 * so the uses whose batches peak in memory (relevance, stage fit: long documents) hold only their own heads.
 */
export const REUSED_HEAD_BYTES = 96 * 2 ** 20;

export interface HeadMemo {
  /** The head's cache: kept from an earlier call of the same instruction, or computed now (and kept). */
  get(
    instruction: string,
    ids: number[],
    compute: () => Promise<PrefixCache>,
  ): Promise<{ cache: PrefixCache; computed: boolean }>;
  clear(): void;
}

const bytesOf = (cache: PrefixCache) => cacheBytesPerToken(cache) * cache.length;

/** Least recently used heads of the last instruction, within `maxBytes` (0 keeps nothing). */
export function createHeadMemo(maxBytes = REUSED_HEAD_BYTES): HeadMemo {
  let instruction: string | undefined;
  const heads = new Map<string, PrefixCache>();
  let bytes = 0;
  const clear = () => {
    heads.clear();
    bytes = 0;
  };
  return {
    async get(instr, ids, compute) {
      if (instr !== instruction) {
        clear();
        instruction = instr;
      }
      const key = ids.join(',');
      const kept = heads.get(key);
      if (kept) {
        heads.delete(key);
        heads.set(key, kept);
        return { cache: kept, computed: false };
      }
      const cache = await compute();
      const size = bytesOf(cache);
      if (size > maxBytes) return { cache, computed: true };
      for (const [k, c] of heads) {
        if (bytes + size <= maxBytes) break;
        heads.delete(k);
        bytes -= bytesOf(c);
      }
      heads.set(key, cache);
      bytes += size;
      return { cache, computed: true };
    },
    clear,
  };
}
