// How the CLI prints an import's report: the counts, then what needs a person (rejected files, removed skills and
// the undo that brings them back, duplicates when the whole report is asked for, warnings with --warnings, conflicts
// with their state), and for each list cut short how many more lines there are and the command that prints them all.
import type { ImportListName, ImportReport } from '../shared/api';
import {
  countOf,
  nameReasons,
  nameRefusals,
  nameSettingsToRelax,
  notListed,
  removedReviewed,
  reviewedNote,
} from '../shared/import-hints';
import { evictedNote } from '../shared/trash-words';
import { printLine } from './output';

export interface ReportPrinting {
  warnings?: boolean;
  /** The whole report (`import-report`): each duplicate on its own line; otherwise only their count. */
  whole?: boolean;
  /** The command line that prints the whole report, given its options (e.g. ['--warnings']). */
  wholeReport: (args: string[]) => string;
  /** The command line that restores the last delete (removed skills go to the trash). */
  undo: string;
}

function printNotListed(report: ImportReport, list: ImportListName, what: string, command: string): void {
  const more = notListed(report, list);
  if (more <= 0) return;
  printLine(
    report.stored === false
      ? `  … and ${more} more ${what}: this import added nothing, so its source and report were not kept; fix these and import again`
      : `  … and ${more} more ${what}: ${command} lists them all`,
  );
}

const issueLine = (kind: string, i: { file: string; line?: number; rule: string; message: string }) =>
  `  ${kind} ${i.file}${i.line ? `:${i.line}` : ''} [${i.rule}] ${i.message}`;

export function printImportReport(report: ImportReport, opts: ReportPrinting): void {
  const n = (list: ImportListName) => countOf(report, list);
  const whole = opts.wholeReport([String(report.sourceId)]);
  printLine(
    `source ${report.sourceId}: added ${n('added')}, updated ${n('updated')}, unchanged ${n('unchanged')}, removed ${n('removed')}, rejected ${n('rejected')}, with warnings ${n('warnings')}, conflicts ${n('conflicts')}${report.cancelled ? ' (cancelled)' : ''}`,
  );
  if (report.reimportOf)
    printLine(
      `  a re-import of "${report.reimportOf.label}"${report.reimportOf.lastImportedAt ? ` (last imported ${report.reimportOf.lastImportedAt})` : ''}: the counts are what changed since`,
    );
  for (const r of report.rejected)
    for (const issue of r.issues.filter((i) => i.severity === 'error'))
      printLine(issueLine('rejected', issue));
  printNotListed(report, 'rejected', 'rejected', whole);
  const refusals = nameRefusals(report);
  if (refusals.total > 0)
    printLine(
      `  ${refusals.total} of them only because of their "name" (${nameReasons(refusals)}); not your files to fix? settings set ${nameSettingsToRelax(report).join(' ')}, then import again (they come in with a warning)`,
    );
  printRemoved(report, whole, opts.undo);
  const duplicates = n('duplicates');
  if (duplicates > 0)
    printLine(
      `  duplicates ${duplicates}: the same content as a skill already in the library or earlier in this source, not added again`,
    );
  if (opts.whole)
    for (const d of report.duplicates ?? [])
      printLine(`  duplicate "${d.name}" at ${d.relPath || '(source root)'} = skill ${d.existingSkillId}`);
  if (opts.warnings) {
    for (const w of report.warnings) for (const i of w.issues) printLine(issueLine('warning', i));
    printNotListed(
      report,
      'warnings',
      'skills with warnings',
      opts.wholeReport([String(report.sourceId), '--warnings']),
    );
  }
  for (const c of report.conflicts) {
    printLine(
      `  conflict #${c.id}: "${c.name}" at ${c.relPath} differs from skill ${c.existingSkillId} ${c.resolution ? `(resolved: ${c.resolution})` : `(resolve with: conflicts resolve ${c.id} keep-both|replace|skip)`}`,
    );
  }
  printNotListed(report, 'conflicts', 'conflicts', whole);
  if (n('conflicts') > 1 && !opts.whole)
    printLine('  many at once: conflicts resolve --all --keep-both|--replace|--skip [--dry-run]');
  printAudit(report);
}

/** The audit of what the import added or changed: findings by severity, and the skills flagged high or critical. */
function printAudit(report: ImportReport): void {
  const a = report.audit;
  if (!a || a.audited === 0) return;
  const counts = (['critical', 'high', 'medium', 'low', 'info'] as const)
    .filter((s) => a.findings[s] > 0)
    .map((s) => `${a.findings[s]} ${s}`);
  printLine(
    `  audit of ${a.audited} skill${a.audited === 1 ? '' : 's'}: ${counts.length > 0 ? counts.join(', ') : 'no findings'}`,
  );
  if (a.flaggedCount === 0) return;
  const names = a.flagged.map((f) => `${f.name} (${f.worst})`).join(', ');
  const more = a.flaggedCount - a.flagged.length;
  printLine(
    `  flagged high or critical: ${names}${more > 0 ? ` and ${more} more` : ''}; see each with: audit show NAME`,
  );
}

/** Each removed skill by name (a curator's edited or verified ones first), and where they went. */
function printRemoved(report: ImportReport, whole: string, undo: string): void {
  for (const r of report.removed) {
    const note = reviewedNote(r);
    printLine(`  removed "${r.name}" at ${r.relPath || '(source root)'}${note ? `: ${note}` : ''}`);
  }
  printNotListed(report, 'removed', 'removed', whole);
  if (!report.removedToTrash || countOf(report, 'removed') === 0) return;
  const reviewed = removedReviewed(report);
  printLine(
    reviewed > 0
      ? `  ${reviewed} removed had states a curator edited or verified: moved to the trash with the rest; ${undo} brings them back`
      : `  the removed went to the trash: ${undo} brings them back`,
  );
  const evicted = evictedNote(report.trashEvicted ?? []);
  if (evicted) printLine(`  ${evicted}`);
}
