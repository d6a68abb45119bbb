// Import from a path (typed, picked or dropped), with the job's progress and then its validation report.
import { useEffect, useRef, useState, type DragEvent } from 'react';
import type { ImportReport, SourceKind } from '../../../shared/api';
import { importLinesShown } from '../../../shared/import-hints';
import { jobOutcome, outcomeWords } from '../../../shared/job-words';
import type { JobInfo } from '../../../shared/jobs';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { useJob } from '../app/use-job';
import { ProgressBar } from './bits';
import { ImportReportView } from './ImportReportView';
import type { Dropped } from './window-drop';

type OnConflict = 'record' | 'keep-both' | 'replace' | 'skip';

function reportOf(job: JobInfo | null): ImportReport | null {
  const result = job?.result as Partial<ImportReport> | undefined;
  return result && Array.isArray(result.added) ? (result as ImportReport) : null;
}

export function ImportPanel({ onImported, dropped }: { onImported: () => void; dropped?: Dropped | null }) {
  const client = useClient();
  const [path, setPath] = useState('');
  const [kind, setKind] = useState<SourceKind | ''>('');
  const [onConflict, setOnConflict] = useState<OnConflict>('record');
  const [started, setStarted] = useState<JobInfo | null>(null);
  const [dragging, setDragging] = useState(false);
  const action = useAction();
  const job = useJob(started);
  const inlineReport = reportOf(job);
  const sourceId = (job?.result as { sourceId?: number } | undefined)?.sourceId;
  const fetched = useApi(
    'library.importReport',
    job?.status === 'done' && !inlineReport && sourceId !== undefined
      ? { sourceId, shown: importLinesShown }
      : null,
  );
  const report = inlineReport ?? fetched.data;
  const desktop = client.mode === 'desktop' ? window.curator?.desktop : undefined;

  const start = async (target = path) => {
    if (!target.trim()) return;
    const begun = await action.run(() =>
      client.call('library.import', { path: target.trim(), kind: kind || undefined, onConflict }),
    );
    if (begun) setStarted(begun);
  };
  const upload = async (file: File) => {
    const sent = await action.run(() => client.upload(file));
    if (sent) {
      setPath(sent.path);
      await start(sent.path);
    }
  };
  const handled = useRef(0);
  useEffect(() => {
    if (!dropped || dropped.seq === handled.current) return;
    handled.current = dropped.seq;
    if (dropped.path) {
      setPath(dropped.path);
      void start(dropped.path);
    } else if (dropped.file) void upload(dropped.file);
  }, [dropped]);
  const finishedId = job?.status === 'done' ? job.id : null;
  useEffect(() => {
    if (finishedId) onImported();
  }, [finishedId, onImported]);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    // Handled here: the window's drop handler (window-drop.tsx) would otherwise upload and import the file again.
    event.stopPropagation();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (!file) return;
    if (!desktop) return void upload(file);
    const dropped = desktop.pathForFile(file);
    setPath(dropped);
    void start(dropped);
  };

  return (
    <section
      className={dragging ? 'panel import dragging' : 'panel import'}
      aria-label="Import"
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h2>Import skills</h2>
      <p className="muted small">
        A folder with SKILL.md files below it, a .zip of one, a single SKILL.md, or a JSONL dump.
        {desktop
          ? ' Drop a file or folder here, or pick one.'
          : ' Type a path on the machine the server runs on, or upload a .zip or SKILL.md (drop it on the window).'}
      </p>
      <form
        className="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <input
          className="grow"
          name="import-path"
          placeholder="/path/to/skills (folder, .zip, SKILL.md or .jsonl)"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          aria-label="Path to import"
        />
        {desktop && (
          <>
            <button type="button" onClick={async () => setPath((await desktop.pickPath('folder')) ?? path)}>
              Folder…
            </button>
            <button type="button" onClick={async () => setPath((await desktop.pickPath('file')) ?? path)}>
              File…
            </button>
          </>
        )}
        {!desktop && client.canUpload && (
          <label className="button-like">
            Upload .zip or SKILL.md…
            <input
              type="file"
              accept=".zip,.md"
              hidden
              aria-label="Upload a .zip or SKILL.md"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void upload(file);
              }}
            />
          </label>
        )}
        <select value={kind} onChange={(e) => setKind(e.target.value as SourceKind | '')} aria-label="Kind">
          <option value="">Detect kind</option>
          <option value="folder">Folder</option>
          <option value="zip">Zip</option>
          <option value="file">SKILL.md</option>
          <option value="jsonl">JSONL</option>
        </select>
        <select
          value={onConflict}
          onChange={(e) => setOnConflict(e.target.value as OnConflict)}
          aria-label="On conflict"
        >
          <option value="record">Conflicts: ask me</option>
          <option value="keep-both">Conflicts: keep both</option>
          <option value="replace">Conflicts: replace</option>
          <option value="skip">Conflicts: skip</option>
        </select>
        <button type="submit" className="primary" disabled={action.busy || !path.trim()}>
          {action.busy ? 'Starting…' : 'Import'}
        </button>
      </form>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
      {job && (
        <div className="import-job" data-status={job.status}>
          <div className="row">
            {/* As the Jobs screen says it: an import whose every skill was refused is done with failures. */}
            <strong>Import {outcomeWords[jobOutcome(job)]}</strong>
            {job.status === 'running' && (
              <button className="ghost" onClick={() => void client.call('jobs.cancel', { id: job.id })}>
                Cancel
              </button>
            )}
          </div>
          <ProgressBar progress={job.progress} label="Import progress" />
          {job.error && <ErrorNote error={{ code: job.error.code as never, message: job.error.message }} />}
        </div>
      )}
      <ErrorNote error={fetched.error} />
      {report && <ImportReportView report={report} />}
    </section>
  );
}
