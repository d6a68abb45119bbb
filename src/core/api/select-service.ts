// The selection part of the API: run, compare, replay, export.
import type { SelectApi } from '../../shared/api';
import type { CoreContext } from '../context';
import { unavailable } from './unavailable';

export function createSelectService(_ctx: CoreContext): SelectApi {
  return {
    'select.run': unavailable('select.run'),
    'select.compare': unavailable('select.compare'),
    'select.replay': unavailable('select.replay'),
    'select.runs': unavailable('select.runs'),
    'select.get': unavailable('select.get'),
    'export.skills': unavailable('export.skills'),
  };
}
