// The evaluation part of the API: label sets and comparison runs.
import type { EvaluationApi } from '../../shared/api';
import type { CoreContext } from '../context';
import { unavailable } from './unavailable';

export function createEvaluationService(_ctx: CoreContext): EvaluationApi {
  return {
    'labels.import': unavailable('labels.import'),
    'labels.list': unavailable('labels.list'),
    'labels.get': unavailable('labels.get'),
    'labels.saveItem': unavailable('labels.saveItem'),
    'eval.run': unavailable('eval.run'),
    'eval.list': unavailable('eval.list'),
    'eval.show': unavailable('eval.show'),
    'eval.export': unavailable('eval.export'),
  };
}
