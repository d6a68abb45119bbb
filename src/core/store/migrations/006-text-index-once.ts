import { externalContentIndex, storedContentIndex, textIndexTriggers } from '../text-index-triggers';
import type { Migration } from './index';

// The full-text index without its own copy of the text: FTS5 with external content, read from a view over skills and
// their reference files (the text it held before, with the snippet marks U+0002/U+0003 blanked). Building it reads
// every skill, so this step only sets it up: skills_fts (migration 001) stays the searched index while the library
// conversion job fills skills_fts_next in id order (text_index_conversion.done_through is its cursor), then swaps
// them and vacuums. Until then the triggers keep both right; skills_fts_next only for skills the cursor has passed.
export const m006TextIndexOnce: Migration = {
  id: 6,
  name: 'text-index-once',
  sql: `
CREATE VIEW skills_fts_source AS
SELECT s.id, s.name,
  replace(replace(s.description, char(2), ' '), char(3), ' ') AS description,
  replace(replace(s.body, char(2), ' '), char(3), ' ') AS body,
  COALESCE((SELECT group_concat(replace(replace(f.text_content, char(2), ' '), char(3), ' '), char(10, 10) ORDER BY f.path)
            FROM skill_files f WHERE f.skill_id = s.id AND f.text_content IS NOT NULL), '') AS refs
FROM skills s;

CREATE VIRTUAL TABLE skills_fts_next USING fts5(name, description, body, refs,
  content = 'skills_fts_source', content_rowid = 'id', tokenize = 'porter unicode61');

CREATE TABLE text_index_conversion (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  phase TEXT NOT NULL CHECK (phase IN ('indexing', 'vacuum')),
  done_through INTEGER NOT NULL,       -- skills with id <= this are in skills_fts_next, their body stored once
  bytes_before INTEGER                 -- the file's size when the conversion began, for the job's result
);
INSERT INTO text_index_conversion (id, phase, done_through) VALUES (1, 'indexing', 0);

${textIndexTriggers([
  storedContentIndex('skills_fts'),
  externalContentIndex(
    'skills_fts_next',
    (id) => ` AND ${id} <= (SELECT done_through FROM text_index_conversion)`,
  ),
])}
`,
};
