import type { Migration } from './index';

// Small columns the Library screen and re-imports read, kept in indexes so no query walks the large text columns:
// a warning count per skill, the digest of the raw source text a skill was built from (an unchanged line or file is
// skipped without parsing), the counts of each import report, and an index for the per-place conflict lookups.
export const m004ScaleColumns: Migration = {
  id: 4,
  name: 'scale-columns',
  sql: `
ALTER TABLE skills ADD COLUMN warning_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE skills ADD COLUMN source_digest TEXT;
UPDATE skills SET warning_count = json_array_length(warnings) WHERE warnings != '[]';
-- The importer writes the count itself; these keep it right for any other writer (a row rewritten only if it is off).
CREATE TRIGGER skills_warning_count_insert AFTER INSERT ON skills
  WHEN NEW.warning_count != json_array_length(NEW.warnings)
  BEGIN UPDATE skills SET warning_count = json_array_length(NEW.warnings) WHERE id = NEW.id; END;
CREATE TRIGGER skills_warning_count_update AFTER UPDATE OF warnings, warning_count ON skills
  WHEN NEW.warning_count != json_array_length(NEW.warnings)
  BEGIN UPDATE skills SET warning_count = json_array_length(NEW.warnings) WHERE id = NEW.id; END;
CREATE INDEX skills_source_warnings ON skills(source_id, warning_count);
CREATE INDEX skills_warned_by_name ON skills(name, id) WHERE warning_count > 0;
CREATE INDEX import_conflicts_place ON import_conflicts(source_id, rel_path);
-- Covers the importer's per-place lookups and its listing of a source: columns stored after the texts are reached
-- only through each row's overflow pages (a 68k library's re-import read over a gigabyte for them).
CREATE INDEX skills_source_place ON skills(source_id, rel_path, name, content_hash, source_digest, warning_count);
ALTER TABLE import_reports ADD COLUMN counts TEXT;
UPDATE import_reports SET counts = json_object(
  'added', json_array_length(report, '$.added'),
  'updated', json_array_length(report, '$.updated'),
  'unchanged', json_array_length(report, '$.unchanged'),
  'removed', json_array_length(report, '$.removed'),
  'rejected', json_array_length(report, '$.rejected'),
  'duplicates', COALESCE(json_array_length(report, '$.duplicates'), 0),
  'cancelled', json(CASE WHEN json_extract(report, '$.cancelled') THEN 'true' ELSE 'false' END));
-- The counts sit after the report (megabytes for a large import); the index holds them for the Library screen.
CREATE INDEX import_reports_counts ON import_reports(source_id, id, counts);
`,
};
