// Methods whose back end is not wired yet answer with a clear error instead of missing from the API.
import { CuratorError } from '../../shared/errors';

export function unavailable(method: string): () => Promise<never> {
  return async () => {
    throw new CuratorError('UNAVAILABLE', `${method} is not available in this build yet`, {
      notInBuild: true,
    });
  };
}
