// The LLM part of the API: endpoint, parsing jobs, review of parsed states.
import type { LlmApi } from '../../shared/api';
import type { CoreContext } from '../context';
import { unavailable } from './unavailable';

export function createLlmService(_ctx: CoreContext): LlmApi {
  return {
    'llm.test': unavailable('llm.test'),
    'llm.setApiKey': unavailable('llm.setApiKey'),
    'parse.skills': unavailable('parse.skills'),
    'parse.task': unavailable('parse.task'),
    'states.get': unavailable('states.get'),
    'states.edit': unavailable('states.edit'),
    'states.verify': unavailable('states.verify'),
    'states.history': unavailable('states.history'),
    'states.revert': unavailable('states.revert'),
    'states.next': unavailable('states.next'),
  };
}
