// The Jobs screen names an evaluation's token counter for what it is (text scored by an engine), not a bare "tokens"
// that reads like a bill; a parse's prompt tokens keep their name.
import { describe, expect, it } from 'vitest';
import { counterLabel } from '../../src/renderer/src/jobs/counter-labels';

describe('job counter labels', () => {
  it('calls an evaluation’s tokens scored tokens, with the scorer once the job has finished', () => {
    expect(counterLabel({ kind: 'eval.run', result: undefined }, 'tokens')).toBe('scored tokens');
    const result = {
      engines: { preset: null, recall: 'lexical:bm25', scorer: 'lexical:bm25-calibrated-v3', llm: null },
    };
    expect(counterLabel({ kind: 'eval.run', result }, 'tokens')).toBe('scored tokens (lexical)');
    const onnx = { engines: { recall: 'lexical:bm25', scorer: 'tiny-reranker', llm: null } };
    expect(counterLabel({ kind: 'eval.run', result: onnx }, 'tokens')).toBe('scored tokens (tiny-reranker)');
  });

  it('keeps the other kinds’ labels', () => {
    expect(counterLabel({ kind: 'parse.skills' }, 'promptTokens')).toBe('prompt tokens');
    expect(counterLabel({ kind: 'eval.run' }, 'crossEncoderPairs')).toBe('pairs scored');
    expect(counterLabel({ kind: 'index.build' }, 'embedded')).toBe('embedded');
  });
});
