// The Qwen3-Reranker prompt, byte-exact with the model card, and its token ids with only the document cut to a budget.

export const QWEN3_YES = 9693;
export const QWEN3_NO = 2152;

export const rerankerPrefix =
  '<|im_start|>system\nJudge whether the Document meets the requirements based on the Query and the Instruct provided. ' +
  'Note that the answer can only be "yes" or "no".<|im_end|>\n<|im_start|>user\n';
export const rerankerSuffix = '<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n';

/** The whole prompt as the model card builds it. */
export function rerankerPrompt(instruction: string, query: string, document: string): string {
  return `${rerankerPrefix}<Instruct>: ${instruction}\n<Query>: ${query}\n<Document>: ${document}${rerankerSuffix}`;
}

export interface PromptIds {
  ids: number[];
  truncated: boolean;
  /** Tokens of the head (system line, instruction, query, "<Document>:"): the same for every document of a query. */
  headLength: number;
}

type Encode = (text: string) => number[];

/**
 * Token ids of each pair's prompt within `budget` tokens, cutting only the document. When the instruction and query
 * alone exceed the budget the document is left empty and the prompt runs over (the query is never cut).
 * The split before " " + document is a pre-tokenizer boundary of Qwen's byte-level BPE, so the pieces tokenize exactly
 * as the whole prompt string does (a test checks this against the tokenizer).
 */
export function rerankerPromptIds(
  encode: Encode,
  instruction: string,
  pairs: { query: string; document: string }[],
  budget: number,
): PromptIds[] {
  const suffix = encode(rerankerSuffix);
  const heads = new Map<string, number[]>();
  return pairs.map(({ query, document }) => {
    let head = heads.get(query);
    if (!head) {
      head = encode(`${rerankerPrefix}<Instruct>: ${instruction}\n<Query>: ${query}\n<Document>:`);
      heads.set(query, head);
    }
    const doc = encode(` ${document}`);
    const room = Math.max(0, budget - head.length - suffix.length);
    const truncated = doc.length > room;
    return {
      ids: [...head, ...(truncated ? doc.slice(0, room) : doc), ...suffix],
      truncated,
      headLength: head.length,
    };
  });
}
