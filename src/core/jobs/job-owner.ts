// Who runs a job: a process (pid, host, a random id per runner) that writes a heartbeat while the job runs.
import { randomUUID } from 'node:crypto';
import os from 'node:os';

export interface JobOwner {
  pid: number;
  host: string;
  /** One per job runner, so two runners in one process (tests, a reopened library) are told apart. */
  id: string;
}

export interface OwnerRecord {
  owner_pid: number | null;
  owner_host: string | null;
  owner_id: string | null;
  heartbeat_ms: number | null;
}

/** Runners of this process that are still open; a job owned by this pid is live only while its runner is. */
const openRunners = new Set<string>();

export function newOwner(): JobOwner {
  const owner = { pid: process.pid, host: os.hostname(), id: randomUUID() };
  openRunners.add(owner.id);
  return owner;
}

export function closeOwner(owner: JobOwner): void {
  openRunners.delete(owner.id);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True when the job's owner can no longer be running it: no owner recorded (a row from an older build), a heartbeat
 * older than staleMs, a runner of this process that was closed, or a pid on this host that no longer exists.
 * A job owned by another host is judged by its heartbeat alone.
 */
export function ownerIsGone(row: OwnerRecord, nowMs: number, staleMs: number): boolean {
  if (row.owner_id === null || row.owner_pid === null || row.heartbeat_ms === null) return true;
  if (nowMs - row.heartbeat_ms > staleMs) return true;
  if (row.owner_host !== os.hostname()) return false;
  if (row.owner_pid === process.pid) return !openRunners.has(row.owner_id);
  return !pidAlive(row.owner_pid);
}

export function describeOwner(row: OwnerRecord, nowMs: number): string {
  const ago = row.heartbeat_ms === null ? 'never' : `${Math.round((nowMs - row.heartbeat_ms) / 1000)} s ago`;
  return `process ${row.owner_pid ?? '?'} on ${row.owner_host ?? '?'} (last heartbeat ${ago})`;
}
