// The Jobs screen's counter names in words, per job kind: an evaluation's "tokens" are the text its scorer (and LLM, if
// any) read, not a bill, so the label says what was scored and by which engine once the finished job tells.
import type { JobInfo } from '../../../shared/jobs';

const counterLabels: Record<string, string> = {
  promptTokens: 'prompt tokens',
  completionTokens: 'completion tokens',
  tokens: 'tokens',
  cost: 'est. cost',
  estimatedCost: 'est. cost',
  cached: 'from cache',
  protected: 'kept (edited or verified)',
  crossEncoderPairs: 'pairs scored',
  llmCalls: 'LLM calls',
};

function evalScorer(result: unknown): string | undefined {
  const engines = (result as { engines?: { scorer?: unknown; recall?: unknown } } | undefined)?.engines;
  const name = engines?.scorer ?? engines?.recall;
  // 'lexical:bm25-calibrated-v3' reads as 'lexical'; a model id stays whole.
  return typeof name === 'string' && name ? name.split(':')[0] : undefined;
}

export function counterLabel(job: Pick<JobInfo, 'kind' | 'result'>, key: string): string {
  if (job.kind === 'eval.run' && key === 'tokens') {
    const scorer = evalScorer(job.result);
    return scorer ? `scored tokens (${scorer})` : 'scored tokens';
  }
  return counterLabels[key] ?? key;
}
