// The library part of the API: import, browse, search, conflicts.
import type { LibraryApi } from '../../shared/api';
import type { CoreContext } from '../context';
import { unavailable } from './unavailable';

export function createLibraryService(_ctx: CoreContext): LibraryApi {
  return {
    'library.import': unavailable('library.import'),
    'library.list': unavailable('library.list'),
    'library.get': unavailable('library.get'),
    'library.search': unavailable('library.search'),
    'library.stats': unavailable('library.stats'),
    'library.sources': unavailable('library.sources'),
    'library.setEnvironmentNote': unavailable('library.setEnvironmentNote'),
    'library.importReport': unavailable('library.importReport'),
    'library.conflicts': unavailable('library.conflicts'),
    'library.resolveConflict': unavailable('library.resolveConflict'),
  };
}
