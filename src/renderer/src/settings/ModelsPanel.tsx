// Which engine runs each role and on which provider, model folder verification and download, the vector index.
import { useEffect, useState } from 'react';
import type { ModelRole, ModelVerifyReport } from '../../../shared/api';
import type { JobInfo } from '../../../shared/jobs';
import type { Settings } from '../../../shared/settings';

type ModelSlot = Settings['models']['embedder'];
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { useJob } from '../app/use-job';
import { ProgressBar } from '../library/bits';

function VerifyReport({ report }: { report: ModelVerifyReport }) {
  return (
    <div className={report.ok ? 'note ok' : 'error-note'}>
      <strong>{report.ok ? 'Model folder is usable' : 'Model folder has problems'}</strong>
      {report.modelType && ` · ${report.modelType}`}
      {report.onnxFile && ` · ${report.onnxFile}`}
      {report.dtype && ` · ${report.dtype}`}
      {report.problems.length > 0 && (
        <ul>
          {report.problems.map((p, i) => (
            <li key={i}>
              {p.file && <code>{p.file}</code>} {p.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function RoleTools({ role, slot }: { role: ModelRole; slot: ModelSlot }) {
  const path = slot.path;
  const client = useClient();
  const action = useAction();
  const [report, setReport] = useState<ModelVerifyReport | null>(null);
  const [download, setDownload] = useState<JobInfo | null>(null);
  const job = useJob(download);
  return (
    <div className="role-tools">
      <div className="row wrap">
        <strong>{role}</strong>
        <button
          disabled={!path || action.busy}
          onClick={async () =>
            setReport((await action.run(() => client.call('models.verify', { role, path }))) ?? null)
          }
        >
          Verify folder
        </button>
        <button
          disabled={!path || action.busy}
          onClick={async () =>
            setReport(
              (await action.run(() =>
                client.call('models.add', {
                  role,
                  path,
                  dtype: slot.dtype === 'auto' ? undefined : slot.dtype,
                  device: slot.device === 'auto' ? undefined : slot.device,
                }),
              )) ?? null,
            )
          }
        >
          Use this folder
        </button>
        <button
          disabled={action.busy}
          onClick={async () =>
            setDownload((await action.run(() => client.call('models.download', { role }))) ?? null)
          }
        >
          Download published model
        </button>
      </div>
      {report && <VerifyReport report={report} />}
      {job && <ProgressBar progress={job.progress} label={`${role} download`} />}
      {job?.error && <ErrorNote error={{ code: job.error.code as never, message: job.error.message }} />}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </div>
  );
}

export function ModelsPanel({ slots }: { slots: Record<ModelRole, ModelSlot> }) {
  const client = useClient();
  const status = useApi('models.status', {});
  const index = useApi('index.status', {});
  const action = useAction();
  const [indexJob, setIndexJob] = useState<JobInfo | null>(null);
  const job = useJob(indexJob);
  const indexFinished = job?.status === 'done' ? job.id : null;
  const { reload: reloadIndex } = index;
  const { reload: reloadStatus } = status;
  useEffect(() => {
    if (!indexFinished) return;
    reloadIndex();
    reloadStatus();
  }, [indexFinished, reloadIndex, reloadStatus]);
  useCuratorEvent((e) => {
    if (e.type === 'models.changed') {
      status.reload();
      index.reload();
    }
  });
  return (
    <div className="models-panel">
      <h3>What runs now</h3>
      <ErrorNote error={status.error} />
      {status.data && (
        <table className="table" data-testid="engine-status">
          <thead>
            <tr>
              <th>Role</th>
              <th>Engine</th>
              <th>Model</th>
              <th>Provider</th>
              <th>Loaded</th>
            </tr>
          </thead>
          <tbody>
            {status.data.map((s) => (
              <tr key={s.role}>
                <td className="nowrap">{s.role}</td>
                <td>{s.engine}</td>
                <td>{s.id}</td>
                <td>
                  {s.provider ?? '—'}
                  {s.fallbackReason && <div className="muted small">fell back: {s.fallbackReason}</div>}
                </td>
                <td>{s.loaded ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RoleTools role="embedder" slot={slots.embedder} />
      <RoleTools role="reranker" slot={slots.reranker} />
      <h3>Vector index</h3>
      <ErrorNote error={index.error} />
      {index.data && (
        <p className="small" data-testid="index-status">
          {index.data.vectors} of {index.data.skills} skills embedded
          {index.data.modelId ? ` with ${index.data.modelId} (${index.data.dim}-d)` : ''}
          {index.data.stale ? ` · stale: ${index.data.staleReason ?? 'model changed'}` : ''}
          {index.data.skillSide
            ? ` · fast preset: skill side of ${index.data.skillSide.current} of ${index.data.skillSide.skills} skills`
            : ''}
        </p>
      )}
      <button
        disabled={action.busy}
        onClick={async () => setIndexJob((await action.run(() => client.call('index.build', {}))) ?? null)}
      >
        Build index
      </button>
      {job && <ProgressBar progress={job.progress} label="Index build" />}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </div>
  );
}
