// A real library file in a temp folder, written with plain SQL against the library schema (migration 1), for the
// vector, hybrid and lexical tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb, type Db } from '../../src/core/store/db';

export interface TestSkill {
  name: string;
  description: string;
  body?: string;
  warnings?: { severity: 'error' | 'warning'; rule: string; message: string; file: string }[];
}

export interface TestLibrary {
  db: Db;
  dir: string;
  sourceId: number;
  add(skill: TestSkill, sourceId?: number): number;
  update(id: number, skill: Partial<TestSkill>): void;
  remove(id: number): void;
  addSource(label: string): number;
  close(): void;
}

const now = '2026-01-01T00:00:00.000Z';

export function openTestLibrary(): TestLibrary {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curator-vec-'));
  const db = openDb(path.join(dir, 'library.db'));
  let sources = 0;
  const addSource = (label: string) => {
    sources++;
    return Number(
      db
        .prepare("INSERT INTO sources (kind, uri, label, created_at) VALUES ('folder', ?, ?, ?)")
        .run(path.join(dir, `src-${sources}`), label, now).lastInsertRowid,
    );
  };
  const sourceId = addSource('test');
  let n = 0;
  // The full-text index follows the skills table by itself (triggers of migration 006).
  return {
    db,
    dir,
    sourceId,
    addSource,
    add(skill, src = sourceId) {
      n++;
      const body = skill.body ?? `# ${skill.name}\n\n${skill.description}`;
      const full = `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n${body}`;
      const id = Number(
        db
          .prepare(
            `INSERT INTO skills (name, description, front_matter, body_own, full_text_stored, source_id, rel_path, content_hash, warnings, created_at, updated_at)
             VALUES (?, ?, '{}', ?, pack_text(?), ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            skill.name,
            skill.description,
            body,
            full,
            src,
            `skills/${skill.name}-${n}`,
            `hash-${n}`,
            JSON.stringify(skill.warnings ?? []),
            now,
            now,
          ).lastInsertRowid,
      );
      return id;
    },
    update(id, skill) {
      if (skill.name !== undefined) db.prepare('UPDATE skills SET name = ? WHERE id = ?').run(skill.name, id);
      if (skill.description !== undefined)
        db.prepare('UPDATE skills SET description = ? WHERE id = ?').run(skill.description, id);
      if (skill.body !== undefined)
        db.prepare('UPDATE skills SET body_own = ? WHERE id = ?').run(skill.body, id);
    },
    remove(id) {
      db.prepare('DELETE FROM skills WHERE id = ?').run(id);
    },
    close() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
