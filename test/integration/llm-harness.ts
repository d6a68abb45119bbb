// Shared setup for the LLM and states tests: a real SQLite file in a temp dir, skill rows written as 001-library.ts
// defines them, and a job context backed by the real jobs/job_items tables.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import type { JobProgress } from '../../src/shared/jobs';
import type { ParseJob } from '../../src/core/llm/parse-skills';
import { openDb, type Db } from '../../src/core/store/db';
import { JobStore } from '../../src/core/jobs/job-store';
import type { Clock, Logger } from '../../src/core/llm/ports';

export interface TempLibrary {
  db: Db;
  file: string;
  close(): void;
}

export function openTempLibrary(): TempLibrary {
  const dir = mkdtempSync(path.join(tmpdir(), 'curator-llm-'));
  const file = path.join(dir, 'library.db');
  const db = openDb(file);
  db.prepare(
    "INSERT INTO sources (id, kind, uri, label, environment_note, created_at) VALUES (1, 'folder', '/skills', 'Test skills', ?, ?)",
  ).run('The agent has a shell, a Python interpreter and a browser.', '2026-01-01T00:00:00.000Z');
  return {
    db,
    file,
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function skillMarkdown(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;
}

export function insertSkill(
  db: Db,
  name: string,
  body = `# ${name}\n\nDo the ${name} thing.`,
  description = `Helps with ${name}.`,
): number {
  const fullText = skillMarkdown(name, description, body);
  const now = '2026-01-01T00:00:00.000Z';
  const info = db
    .prepare(
      `INSERT INTO skills (name, description, front_matter, body_own, full_text_stored, source_id, rel_path, content_hash, created_at, updated_at)
       VALUES (?, ?, ?, ?, pack_text(?), 1, ?, ?, ?, ?)`,
    )
    .run(
      name,
      description,
      JSON.stringify({ name, description }),
      body,
      fullText,
      name,
      sha256(fullText),
      now,
      now,
    );
  return Number(info.lastInsertRowid);
}

/** Changes a skill's content in place, as a re-import of an edited SKILL.md does. */
export function changeSkillBody(db: Db, id: number, body: string): void {
  const row = db.prepare('SELECT name, description FROM skills WHERE id = ?').get(id) as {
    name: string;
    description: string;
  };
  const fullText = skillMarkdown(row.name, row.description, body);
  db.prepare(
    'UPDATE skills SET body_own = ?, body_start = NULL, full_text_stored = pack_text(?), content_hash = ? WHERE id = ?',
  ).run(body, fullText, sha256(fullText), id);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export interface TestJob extends ParseJob {
  id: string;
  progress: JobProgress[];
  controller: AbortController;
  items(): { item_key: string; status: string }[];
}

/** A job context over the real job tables; calling it again with the same id is a resume. */
export function jobContext(db: Db, id = 'job-1'): TestJob {
  const now = '2026-01-01T00:00:00.000Z';
  db.prepare(
    "INSERT OR IGNORE INTO jobs (id, kind, status, params, created_at, updated_at) VALUES (?, 'parse.skills', 'running', '{}', ?, ?)",
  ).run(id, now, now);
  const controller = new AbortController();
  const progress: JobProgress[] = [];
  return {
    id,
    progress,
    controller,
    signal: controller.signal,
    report: (p) => void progress.push(structuredClone(p)),
    isItemDone: (key) =>
      db
        .prepare("SELECT 1 FROM job_items WHERE job_id = ? AND item_key = ? AND status = 'done'")
        .get(id, key) !== undefined,
    markItem: (key, status, detail) =>
      void db
        .prepare('INSERT OR REPLACE INTO job_items (job_id, item_key, status, detail) VALUES (?, ?, ?, ?)')
        .run(id, key, status, detail === undefined ? null : JSON.stringify(detail)),
    jobId: id,
    // Reading items needs no ownership; the owner only matters for claiming jobs.
    markedItems: () =>
      new JobStore(db, { pid: process.pid, host: hostname(), id: 'harness' }, 60_000).items(id),
    items: () =>
      db.prepare('SELECT item_key, status FROM job_items WHERE job_id = ? ORDER BY item_key').all(id) as {
        item_key: string;
        status: string;
      }[],
  };
}

export const fixedClock: Clock = () => new Date('2026-03-01T12:00:00.000Z');

/** A logger that keeps every line, to check what was (not) logged. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: string, data?: Record<string, unknown>) =>
    void lines.push(JSON.stringify({ level, message, ...data }));
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export interface StatesRow {
  skill_id: number;
  precondition: string | null;
  completion: string | null;
  status: string;
  model: string | null;
  prompt_version: string | null;
  source_hash: string | null;
  raw_answer: string | null;
  error: string | null;
  prompt_tokens: number;
  completion_tokens: number;
}

export function statesRow(db: Db, skillId: number): StatesRow | undefined {
  return db.prepare('SELECT * FROM skill_states WHERE skill_id = ?').get(skillId) as StatesRow | undefined;
}

export function historyRows(
  db: Db,
  skillId: number,
): { action: string; before: string | null; after: string }[] {
  return db
    .prepare('SELECT action, before, after FROM state_history WHERE skill_id = ? ORDER BY id')
    .all(skillId) as {
    action: string;
    before: string | null;
    after: string;
  }[];
}
