import type { Migration } from './index';

// An import report's lines as rows, written as the import goes: a 68k import's report (13 MB of JSON) no longer sits
// in the importer's heap until it ends, nor is it stored twice (the report row and the job's result). A report row
// written this way holds only its head in `report` (its lists empty) and NULL `counts` until the import ends; rows
// written before this migration keep their whole report in `report` and have no entries.
export const m007ImportReportEntries: Migration = {
  id: 7,
  name: 'import-report-entries',
  sql: `
CREATE TABLE import_report_entries (
  report_id INTEGER NOT NULL REFERENCES import_reports(id) ON DELETE CASCADE,
  list TEXT NOT NULL CHECK (list IN ('added','updated','unchanged','removed','duplicates','rejected','warnings','conflicts')),
  entry TEXT NOT NULL                  -- JSON: one line of that list, as the report's JSON had it
);
CREATE INDEX import_report_entries_list ON import_report_entries(report_id, list);
`,
};
