// The validation report of one import: what was added or changed, what was rejected and why, open conflicts.
import type { ImportReport } from '../../../shared/api';
import { refusedOnlyForFolderName } from '../../../shared/import-hints';
import { useApi } from '../app/use-api';
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
 * Skills refused only because their "name" differs from their folder (common in libraries one does not own): the
 * setting that imports them with a warning instead, rather than "fix these files" alone.
 */
function NameFolderHint({ rejected }: { rejected: ImportReport['rejected'] }) {
  const onlyName = refusedOnlyForFolderName(rejected);
  if (onlyName === 0) return null;
  return (
    <p className="small" data-testid="name-folder-hint">
      {onlyName === rejected.length ? 'All' : `${onlyName} of them`} were refused only because their “name”
      differs from their folder. Not your files to fix? Set{' '}
      <a href="#/settings">Settings → Import limits → Name differs from its folder</a> to <em>warning</em> and
      import again: they come in with a warning.
    </p>
  );
}

export function ImportReportView({ report }: { report: ImportReport }) {
  const counts: [string, number][] = [
    ['added', report.added.length],
    ['updated', report.updated.length],
    ['unchanged', report.unchanged.length],
    ['removed', report.removed.length],
    ['rejected', report.rejected.length],
    ['with warnings', report.warnings.length],
    ['duplicates', report.duplicates?.length ?? 0],
    ['conflicts', report.conflicts.length],
  ];
  const nothing = counts.every(([, n]) => n === 0);
  return (
    <div className="import-report" aria-label="Import report">
      <h3>Import report{report.cancelled ? ' (cancelled part way)' : ''}</h3>
      <ul className="counts">
        {counts.map(([label, n]) => (
          <li key={label} data-count-of={label}>
            <strong>{n}</strong> {label}
          </li>
        ))}
      </ul>
      {nothing && !report.cancelled && (
        <p className="warn-text" data-testid="no-skills">
          No SKILL.md found: this source holds no skill folder (a folder with a SKILL.md in it).
        </p>
      )}
      {(report.duplicates?.length ?? 0) > 0 && (
        <details>
          <summary>
            Duplicates ({report.duplicates!.length}): identical copies already in the library, not added again
          </summary>
          <table className="table">
            <thead>
              <tr>
                <th>Skill</th>
                <th>Here</th>
                <th>Identical to</th>
              </tr>
            </thead>
            <tbody>
              {report.duplicates!.slice(0, 100).map((d) => (
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
          <summary>Rejected ({report.rejected.length}): fix these files and import again</summary>
          <NameFolderHint rejected={report.rejected} />
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
      {report.warnings.length > 0 && (
        <details>
          <summary>Warnings ({report.warnings.length}): imported, but worth a look</summary>
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
          <ul>
            {report.conflicts.map((c) => (
              <li key={c.id}>
                <strong>{c.name}</strong> <span className="muted">({c.relPath})</span>{' '}
                <ConflictActions id={c.id} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
