// Durable job rows: every job is a row, so a crash leaves a record that can be resumed.
import type { Db } from '../store/db';
import type { JobInfo, JobProgress, JobStatus } from '../../shared/jobs';

interface JobRow {
  id: string;
  kind: string;
  status: JobStatus;
  params: string;
  progress: string;
  result: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

function toInfo(row: JobRow): JobInfo {
  const info: JobInfo = {
    id: row.id,
    kind: row.kind,
    status: row.status,
    params: JSON.parse(row.params),
    progress: JSON.parse(row.progress) as JobProgress,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.result !== null) info.result = JSON.parse(row.result);
  if (row.error !== null) info.error = JSON.parse(row.error);
  if (row.finished_at !== null) info.finishedAt = row.finished_at;
  return info;
}

export interface JobItem {
  key: string;
  status: 'done' | 'failed' | 'skipped';
  detail: unknown;
}

export class JobStore {
  constructor(private readonly db: Db) {}

  insert(job: JobInfo): void {
    this.db
      .prepare(
        'INSERT INTO jobs (id, kind, status, params, progress, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        job.id,
        job.kind,
        job.status,
        JSON.stringify(job.params ?? null),
        JSON.stringify(job.progress),
        job.createdAt,
        job.updatedAt,
      );
  }

  update(job: JobInfo): void {
    this.db
      .prepare(
        'UPDATE jobs SET status = ?, progress = ?, result = ?, error = ?, updated_at = ?, finished_at = ? WHERE id = ?',
      )
      .run(
        job.status,
        JSON.stringify(job.progress),
        job.result === undefined ? null : JSON.stringify(job.result),
        job.error === undefined ? null : JSON.stringify(job.error),
        job.updatedAt,
        job.finishedAt ?? null,
        job.id,
      );
  }

  get(id: string): JobInfo | undefined {
    const row = this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
    return row && toInfo(row);
  }

  list(status: JobStatus | undefined, limit: number): JobInfo[] {
    const rows = (
      status
        ? this.db
            .prepare('SELECT * FROM jobs WHERE status = ? ORDER BY created_at DESC LIMIT ?')
            .all(status, limit)
        : this.db.prepare('SELECT * FROM jobs ORDER BY created_at DESC LIMIT ?').all(limit)
    ) as JobRow[];
    return rows.map(toInfo);
  }

  /** Jobs that were running when the process died are marked interrupted, so they can be resumed. */
  markInterrupted(now: string): number {
    return this.db
      .prepare("UPDATE jobs SET status = 'interrupted', updated_at = ? WHERE status IN ('running', 'queued')")
      .run(now).changes;
  }

  isItemDone(jobId: string, key: string): boolean {
    return (
      this.db
        .prepare("SELECT 1 FROM job_items WHERE job_id = ? AND item_key = ? AND status = 'done'")
        .get(jobId, key) !== undefined
    );
  }

  markItem(jobId: string, key: string, status: 'done' | 'failed' | 'skipped', detail?: unknown): void {
    this.db
      .prepare('INSERT OR REPLACE INTO job_items (job_id, item_key, status, detail) VALUES (?, ?, ?, ?)')
      .run(jobId, key, status, detail === undefined ? null : JSON.stringify(detail));
  }

  items(jobId: string): JobItem[] {
    const rows = this.db
      .prepare('SELECT item_key, status, detail FROM job_items WHERE job_id = ?')
      .all(jobId) as { item_key: string; status: JobItem['status']; detail: string | null }[];
    return rows.map((r) => ({
      key: r.item_key,
      status: r.status,
      detail: r.detail === null ? null : (JSON.parse(r.detail) as unknown),
    }));
  }
}
