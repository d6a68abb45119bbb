// The LLM part of the API: endpoint, parsing jobs, review of parsed states.
import type { LlmApi } from '../../shared/api';
import type { CoreContext } from '../context';
import { createLlmApi } from '../llm/llm-api';

export function createLlmService(ctx: CoreContext): LlmApi {
  return createLlmApi(ctx);
}
