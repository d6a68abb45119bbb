// A file that exists is refused unless the caller asks to overwrite it; on the CLI, asking is the --overwrite flag.
import { CuratorError } from '../shared/errors';

export function withOverwriteFlag(error: unknown): unknown {
  return error instanceof CuratorError && error.code === 'CONFLICT'
    ? new CuratorError('CONFLICT', error.message.replace('ask to overwrite it', 'run again with --overwrite'))
    : error;
}
