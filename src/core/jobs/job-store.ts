// Durable job rows: every job is a row, so a crash leaves a record that can be resumed.
import type { Db } from '../store/db';
import { CuratorError } from '../../shared/errors';
import type { JobInfo, JobProgress, JobStatus } from '../../shared/jobs';
import type { JobOwner, OwnerRecord } from './job-owner';
import { describeOwner, ownerIsGone } from './job-owner';

interface JobRow extends OwnerRecord {
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
  constructor(
    private readonly db: Db,
    private readonly owner: JobOwner,
    /** A running job whose heartbeat is older than this belongs to no one. */
    private readonly staleMs: number,
  ) {}

  insert(job: JobInfo): void {
    this.db
      .prepare(
        `INSERT INTO jobs (id, kind, status, params, progress, created_at, updated_at,
           owner_pid, owner_host, owner_id, heartbeat_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        job.id,
        job.kind,
        job.status,
        JSON.stringify(job.params ?? null),
        JSON.stringify(job.progress),
        job.createdAt,
        job.updatedAt,
        this.owner.pid,
        this.owner.host,
        this.owner.id,
        Date.now(),
      );
  }

  /** Writes the job's state; only the owner's runner writes, and each write is a heartbeat too. */
  update(job: JobInfo): void {
    this.db
      .prepare(
        `UPDATE jobs SET status = ?, progress = ?, result = ?, error = ?, updated_at = ?, finished_at = ?,
           heartbeat_ms = ? WHERE id = ? AND owner_id IS ?`,
      )
      .run(
        job.status,
        JSON.stringify(job.progress),
        job.result === undefined ? null : JSON.stringify(job.result),
        job.error === undefined ? null : JSON.stringify(job.error),
        job.updatedAt,
        job.finishedAt ?? null,
        Date.now(),
        job.id,
        this.owner.id,
      );
  }

  heartbeat(ids: string[]): void {
    const stmt = this.db.prepare('UPDATE jobs SET heartbeat_ms = ? WHERE id = ? AND owner_id = ?');
    const now = Date.now();
    this.db.transaction(() => ids.forEach((id) => stmt.run(now, id, this.owner.id))).immediate();
  }

  /**
   * Makes this runner the owner of a job it is about to run again. A job still running under a live owner elsewhere
   * is refused, so two processes never run one job at once; the check and the claim are one write transaction.
   */
  claim(id: string, now: string): JobInfo {
    return this.db
      .transaction((): JobInfo => {
        const row = this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
        if (!row) throw new CuratorError('NOT_FOUND', `No job ${id}`);
        if (row.status === 'done') throw new CuratorError('CONFLICT', 'This job has already finished');
        const live = row.status === 'running' || row.status === 'queued';
        if (live && row.owner_id !== this.owner.id && !ownerIsGone(row, Date.now(), this.staleMs))
          throw new CuratorError(
            'CONFLICT',
            `Job ${id} is still running in ${describeOwner(row, Date.now())}; wait for it or cancel it there`,
            { ownerPid: row.owner_pid, ownerHost: row.owner_host },
          );
        this.db
          .prepare(
            `UPDATE jobs SET status = 'running', error = NULL, finished_at = NULL, updated_at = ?,
               owner_pid = ?, owner_host = ?, owner_id = ?, heartbeat_ms = ? WHERE id = ?`,
          )
          .run(now, this.owner.pid, this.owner.host, this.owner.id, Date.now(), id);
        return toInfo(this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow);
      })
      .immediate();
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

  /**
   * Jobs whose owner died (process gone, or no heartbeat for staleMs) are marked interrupted, so they can be
   * resumed. Jobs that another live process runs are left alone.
   */
  markInterrupted(now: string): number {
    const orphans = () =>
      (
        this.db
          .prepare("SELECT * FROM jobs WHERE status IN ('running', 'queued') AND owner_id IS NOT ?")
          .all(this.owner.id) as JobRow[]
      ).filter((row) => ownerIsGone(row, Date.now(), this.staleMs));
    if (this.db.readonly || orphans().length === 0) return 0;
    const mark = this.db.prepare("UPDATE jobs SET status = 'interrupted', updated_at = ? WHERE id = ?");
    // Judged again inside the write transaction: the owner may have written a heartbeat meanwhile.
    return this.db
      .transaction(() => orphans().reduce((n, row) => n + mark.run(now, row.id).changes, 0))
      .immediate();
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
