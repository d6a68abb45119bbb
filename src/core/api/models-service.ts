// The models part of the API: engines, model folders, the vector index.
import type { ModelsApi } from '../../shared/api';
import type { CoreContext } from '../context';
import { unavailable } from './unavailable';

export function createModelsService(_ctx: CoreContext): ModelsApi {
  return {
    'models.status': unavailable('models.status'),
    'models.verify': unavailable('models.verify'),
    'models.add': unavailable('models.add'),
    'models.download': unavailable('models.download'),
    'index.status': unavailable('index.status'),
    'index.build': unavailable('index.build'),
  };
}
