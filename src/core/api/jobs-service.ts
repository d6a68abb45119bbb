// The jobs part of the API over the job runner.
import type { JobsApi } from '../../shared/api';
import type { CoreContext } from '../context';

export function createJobsService(ctx: CoreContext): JobsApi {
  return {
    'jobs.list': async (req) => ctx.jobs.list(req.status, req.limit ?? 100),
    'jobs.get': async (req) => ctx.jobs.get(req.id),
    'jobs.cancel': async (req) => ctx.jobs.cancel(req.id),
    'jobs.resume': async (req) => ctx.jobs.resume(req.id),
    'jobs.wait': (req) => ctx.jobs.wait(req.id, req.timeoutMs),
  };
}
