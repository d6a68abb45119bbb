// Jobs: list, watch, cancel, resume.
import type { JobInfo, JobStatus } from '../jobs';

export interface JobsApi {
  'jobs.list'(req: { status?: JobStatus; limit?: number }): Promise<JobInfo[]>;
  'jobs.get'(req: { id: string }): Promise<JobInfo>;
  'jobs.cancel'(req: { id: string }): Promise<JobInfo>;
  /** Starts an interrupted, failed or cancelled job again; finished items are skipped. */
  'jobs.resume'(req: { id: string }): Promise<JobInfo>;
  /** Resolves when the job has finished (or after timeoutMs with its current state). */
  'jobs.wait'(req: { id: string; timeoutMs?: number }): Promise<JobInfo>;
}

export const jobsMethods = ['jobs.list', 'jobs.get', 'jobs.cancel', 'jobs.resume', 'jobs.wait'] as const;
