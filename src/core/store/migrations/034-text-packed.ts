import { setUpPacking } from '../text-index-conversion';
import { dropTextIndexTriggers } from '../text-index-triggers';
import type { Migration } from './index';

// Each skill's full text stored compressed (issue 12: the library file at most 1.3x its text): the stored column is
// renamed full_text_stored and holds a zlib BLOB or plain TEXT (text-packing.ts); full_text and body become generated
// columns that read it through unpack_text(), a function every connection registers (db.ts), so readers select them
// as before. Writers write full_text_stored (pack_text() or packText()). The view is made again over the new columns;
// the index triggers are made again for the new column, and existing texts are packed by the library conversion job
// (setUpPacking, text-index-conversion.ts).
export const m034TextPacked: Migration = {
  id: 34,
  name: 'text-packed',
  sql: `
${dropTextIndexTriggers()}
DROP VIEW skills_fts_source;
ALTER TABLE skills DROP COLUMN body;
ALTER TABLE skills RENAME COLUMN full_text TO full_text_stored;
ALTER TABLE skills ADD COLUMN full_text TEXT GENERATED ALWAYS AS (unpack_text(full_text_stored)) VIRTUAL;
ALTER TABLE skills ADD COLUMN body TEXT GENERATED ALWAYS AS (
  CASE WHEN body_start IS NULL THEN body_own ELSE substr(full_text, body_start + 1) END) VIRTUAL;

CREATE VIEW skills_fts_source AS
SELECT s.id, s.name,
  replace(replace(s.description, char(2), ' '), char(3), ' ') AS description,
  replace(replace(s.body, char(2), ' '), char(3), ' ') AS body,
  COALESCE((SELECT group_concat(replace(replace(f.text_content, char(2), ' '), char(3), ' '), char(10, 10) ORDER BY f.path)
            FROM skill_files f WHERE f.skill_id = s.id AND f.text_content IS NOT NULL), '') AS refs
FROM skills s;
`,
  afterSql: setUpPacking,
};
