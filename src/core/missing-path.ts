// A path the user typed that is not there: NOT_FOUND naming the path, with the advice every screen and the CLI show
// (the generic NOT_FOUND advice is about records removed meanwhile, which a typo is not).
import { CuratorError } from '../shared/errors';

export function missingPathError(message: string, path: string): CuratorError {
  return new CuratorError('NOT_FOUND', message, {
    path,
    hint: 'Check the path for typos: it is a path on the machine the app or server runs on.',
  });
}
