// An import report is stored as JSON written a part at a time: the same bytes JSON.stringify gives, read back equal.
import { describe, expect, it } from 'vitest';
import { emptyImportReport } from '../../src/core/skills/importer';
import { reportJsonBytes } from '../../src/core/store/report-json';

describe('reportJsonBytes', () => {
  it('gives the bytes of JSON.stringify for a report of many entries, quotes and non-ASCII names', () => {
    const report = emptyImportReport(3, '/tmp/src "quoted" ü', 'folder');
    report.total = 1234;
    for (let i = 0; i < 1201; i++)
      report.added.push({ name: `skill-${i}-é"\\`, relPath: `b${i % 7}/skill-${i}` });
    report.warnings.push({
      name: 'w',
      relPath: 'w',
      issues: [{ severity: 'warning', rule: 'r', message: 'line\nbreak \u2028', file: 'w/SKILL.md' }],
    });
    const withUndefined = { ...report, extra: undefined } as typeof report;
    for (const r of [report, withUndefined, emptyImportReport(1, '', 'jsonl')]) {
      const bytes = reportJsonBytes(r);
      expect(bytes.equals(Buffer.from(JSON.stringify(r)))).toBe(true);
      expect(JSON.parse(bytes.toString('utf8'))).toEqual(JSON.parse(JSON.stringify(r)));
    }
  });
});
