// The validation report of one import: what was added, changed or removed, what was rejected and why, open conflicts.
import { useState } from 'react';
import type { ImportListName, ImportReport } from '../../../shared/api';
import { cliCommand } from '../../../shared/cli-command';
import {
  countOf,
  nameReasons,
  nameRefusals,
  notListed,
  removedReviewed,
  reviewedNote,
} from '../../../shared/import-hints';
import { evictedNote } from '../../../shared/trash-words';
import { routeHref } from '../app/router';
import { useApi } from '../app/use-api';
import { ImportAuditSummary } from '../audit/ImportAuditSummary';
import { ConflictActions } from './ConflictsPanel';
import './sources.css';

/** Where the identical copy already in the library came from. */
function DuplicateOf({ skillId }: { skillId: number }) {
  const skill = useApi('library.get', { id: skillId });
  return (
    <a href={`#/skill/${skillId}`}>
      {skill.data
        ? `${skill.data.sourceLabel} · ${skill.data.relPath || '(source root)'}`
        : `skill ${skillId}`}
    </a>
  );
}

/**
 * Skills refused only because of their "name" (it differs from their folder, or has capitals or spaces; common in
 * libraries one does not own): the settings that import them with a warning instead, rather than "fix these files".
 */
/** Settings, scrolled to its Import limits group, where the name settings are. */
const importLimits = routeHref({ screen: 'settings', section: 'import' });

function NameFolderHint({ report }: { report: ImportReport }) {
  const refusals = nameRefusals(report);
  const onlyName = refusals.total;
  const byFormat = refusals.format;
  if (onlyName === 0) return null;
  return (
    <p className="small" data-testid="name-folder-hint">
      {onlyName === countOf(report, 'rejected') ? 'All' : `${onlyName} of them`} were refused only because of
      their “name” ({nameReasons(refusals)}). Not your files to fix? Set{' '}
      <a href={importLimits}>Settings → Import limits → Name differs from its folder</a>
      {byFormat > 0 && (
        <>
          {' '}
          and <a href={importLimits}>Name breaks the spec’s format</a>
        </>
      )}{' '}
      to <em>warning</em> and import again: they come in with a warning.
    </p>
  );
}

/** A list the report counts in full but lists only the first lines of (a 68k import's report). */
function NotListed({ report, list }: { report: ImportReport; list: ImportListName }) {
  const paths = useApi('settings.paths', {});
  const more = notListed(report, list);
  if (more <= 0) return null;
  const first = `The first ${(report[list]?.length ?? 0).toLocaleString()} of ${countOf(report, list).toLocaleString()} are listed here`;
  if (report.stored === false)
    return (
      <p className="muted small" data-testid={`not-listed-${list}`}>
        {first}; this import added nothing, so its source and report were not kept: fix these files and import
        again.
      </p>
    );
  const args = ['import-report', String(report.sourceId), ...(list === 'warnings' ? ['--warnings'] : [])];
  return (
    <p className="muted small" data-testid={`not-listed-${list}`}>
      {first}; <code>{cliCommand(paths.data ?? {}, args)}</code> lists them all.
    </p>
  );
}

/**
 * Skills the source no longer has, by name: in the trash, where Undo brings them back with their states and history.
 * Open at once when a curator had edited or verified some of them (those are listed first).
 */
function RemovedList({ report }: { report: ImportReport }) {
  const paths = useApi('settings.paths', {});
  const reviewed = removedReviewed(report);
  return (
    <details open={reviewed > 0} data-testid="removed-list">
      <summary>Removed ({countOf(report, 'removed').toLocaleString()}): gone from the source</summary>
      {report.removedToTrash && (
        <p className={reviewed > 0 ? 'warn-text small' : 'small'} data-testid="removed-hint">
          {reviewed > 0 ? `${reviewed.toLocaleString()} had states a curator edited or verified. ` : ''}
          Moved to the trash: Undo (in the Library) or <code>
            {cliCommand(paths.data ?? {}, ['undo'])}
          </code>{' '}
          brings them back with their states and history.
          {report.trashEvicted && ` ${evictedNote(report.trashEvicted)}`}
        </p>
      )}
      <NotListed report={report} list="removed" />
      <ul>
        {report.removed.map((r) => (
          <li key={r.relPath}>
            <strong>{r.name}</strong> <span className="muted">({r.relPath || '(source root)'})</span>
            {r.reviewStatus && <span className="warn-text small"> {reviewedNote(r)}</span>}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** A conflict of the report: its actions while open, how it was resolved once it is (in a report read back). */
function ConflictState({ conflict }: { conflict: ImportReport['conflicts'][number] }) {
  if (conflict.resolution) return <span className="muted small">resolved: {conflict.resolution}</span>;
  return <ConflictActions id={conflict.id} />;
}

export function ImportReportView({ report }: { report: ImportReport }) {
  const n = (list: ImportListName) => countOf(report, list);
  const [duplicatesOpen, setDuplicatesOpen] = useState(false);
  const counts: [string, number][] = [
    ['added', n('added')],
    ['updated', n('updated')],
    ['unchanged', n('unchanged')],
    ['removed', n('removed')],
    ['rejected', n('rejected')],
    ['with warnings', n('warnings')],
    ['duplicates', n('duplicates')],
    ['conflicts', n('conflicts')],
  ];
  const nothing = counts.every(([, n]) => n === 0);
  return (
    <div className="import-report" aria-label="Import report">
      <h3>Import report{report.cancelled ? ' (cancelled part way)' : ''}</h3>
      {report.reimportOf && (
        <p className="small" data-testid="reimport-of">
          Updated the source already in the library, <strong>{report.reimportOf.label}</strong>
          {report.reimportOf.lastImportedAt
            ? ` (last imported ${new Date(report.reimportOf.lastImportedAt).toLocaleString()})`
            : ''}
          : the counts are what changed since, not a second copy.
        </p>
      )}
      <ul className="counts">
        {counts.map(([label, n]) => (
          <li key={label} data-count-of={label}>
            <strong>{n.toLocaleString()}</strong> {label}
          </li>
        ))}
      </ul>
      {report.audit && <ImportAuditSummary audit={report.audit} />}
      {nothing && !report.cancelled && (
        <p className="warn-text" data-testid="no-skills">
          No SKILL.md found: this source holds no skill folder (a folder with a SKILL.md in it).
        </p>
      )}
      {(report.duplicates?.length ?? 0) > 0 && (
        <details onToggle={(e) => setDuplicatesOpen(e.currentTarget.open)}>
          <summary>
            Duplicates ({n('duplicates')}): identical copies already in the library or earlier in this source,
            not added again
          </summary>
          <NotListed report={report} list="duplicates" />
          <table className="table">
            <thead>
              <tr>
                <th>Skill</th>
                <th>Here</th>
                <th>Identical to</th>
              </tr>
            </thead>
            <tbody>
              {/* Each row asks where its twin is: only once the list is opened. */}
              {(duplicatesOpen ? report.duplicates!.slice(0, 100) : []).map((d) => (
                <tr key={d.relPath}>
                  <td>{d.name}</td>
                  <td className="muted">{d.relPath || '(source root)'}</td>
                  <td>
                    <DuplicateOf skillId={d.existingSkillId} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
      {report.rejected.length > 0 && (
        <details open>
          <summary>Rejected ({n('rejected')}): fix these files and import again</summary>
          <NameFolderHint report={report} />
          <NotListed report={report} list="rejected" />
          <table className="table">
            <thead>
              <tr>
                <th>Skill</th>
                <th>File</th>
                <th>Rule</th>
                <th>Problem</th>
              </tr>
            </thead>
            <tbody>
              {report.rejected.flatMap((r) =>
                r.issues.map((issue, i) => (
                  <tr key={`${r.relPath}-${i}`}>
                    <td>{r.relPath}</td>
                    <td>
                      {issue.file}
                      {issue.line !== undefined ? `:${issue.line}` : ''}
                    </td>
                    <td>{issue.rule}</td>
                    <td>{issue.message}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </details>
      )}
      {report.removed.length > 0 && <RemovedList report={report} />}
      {report.warnings.length > 0 && (
        <details>
          <summary>Warnings ({n('warnings')}): worth a look</summary>
          <NotListed report={report} list="warnings" />
          <ul>
            {report.warnings.flatMap((w) =>
              w.issues.map((issue, i) => (
                <li key={`${w.relPath}-${i}`}>
                  <strong>{w.name}</strong>: {issue.message} <span className="muted">({issue.rule})</span>
                </li>
              )),
            )}
          </ul>
        </details>
      )}
      {report.conflicts.length > 0 && (
        <div>
          <h4>Conflicts: a skill with the same name and different content exists</h4>
          <NotListed report={report} list="conflicts" />
          <ul>
            {report.conflicts.map((c) => (
              <li key={c.id}>
                <strong>{c.name}</strong> <span className="muted">({c.relPath})</span>{' '}
                <ConflictState conflict={c} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
