// Add a Git repository as a source: URL, branch or tag, sub-folder, and a token for a private one (kept like the LLM
// key, never shown again). The clone and import run as a job; its report shows here.
import { useEffect, useRef, useState } from 'react';
import type { ImportReport } from '../../../shared/api';
import type { JobInfo } from '../../../shared/jobs';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction } from '../app/use-api';
import { useJob } from '../app/use-job';
import { ProgressBar } from './bits';
import { ImportReportView } from './ImportReportView';

export function AddGitForm({ onImported }: { onImported: () => void }) {
  const client = useClient();
  const action = useAction();
  const [url, setUrl] = useState('');
  const [ref, setRef] = useState('');
  const [subdir, setSubdir] = useState('');
  const [label, setLabel] = useState('');
  const [token, setToken] = useState('');
  const [started, setStarted] = useState<JobInfo | null>(null);
  const job = useJob(started);
  const report = job?.status === 'done' ? (job.result as ImportReport) : null;
  const finished = job?.status === 'done' || job?.status === 'failed' ? job.id : null;
  const told = useRef<string | null>(null);
  useEffect(() => {
    if (!finished || told.current === finished) return;
    told.current = finished;
    onImported();
  }, [finished, onImported]);

  return (
    <div className="add-git" aria-label="Add a Git repository">
      <h3>Add a Git repository</h3>
      <form
        className="row wrap"
        onSubmit={async (e) => {
          e.preventDefault();
          const begun = await action.run(() =>
            client.call('sources.addGit', {
              url: url.trim(),
              ref: ref.trim() || undefined,
              subdir: subdir.trim() || undefined,
              label: label.trim() || undefined,
              token: token || undefined,
            }),
          );
          if (begun) {
            setToken('');
            setStarted(begun);
          }
        }}
      >
        <input
          className="grow"
          placeholder="https://github.com/owner/skills.git"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-label="Repository URL"
        />
        <input
          placeholder="branch or tag"
          value={ref}
          onChange={(e) => setRef(e.target.value)}
          aria-label="Branch or tag"
        />
        <input
          placeholder="sub-folder"
          value={subdir}
          onChange={(e) => setSubdir(e.target.value)}
          aria-label="Sub-folder"
        />
        <input
          placeholder="label"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          aria-label="Label"
        />
        <input
          type="password"
          autoComplete="off"
          placeholder="token (private repositories)"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-label="Access token"
        />
        <button type="submit" className="primary" disabled={action.busy || !url.trim()}>
          Clone and import
        </button>
      </form>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
      {job && (
        <div className="import-job" data-status={job.status}>
          <strong>Git import {job.status}</strong>
          <ProgressBar progress={job.progress} label="Git import progress" />
          {job.error && <ErrorNote error={{ code: job.error.code as never, message: job.error.message }} />}
        </div>
      )}
      {report && <ImportReportView report={report} />}
    </div>
  );
}
