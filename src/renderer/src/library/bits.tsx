// Small pieces shared by the library screens: status badges, search snippets, progress bars.
import type { ReviewStatus } from '../../../shared/api';
import type { JobProgress } from '../../../shared/jobs';

export function StatusBadge({ status }: { status: ReviewStatus }) {
  return <span className={`badge status-${status}`}>{status}</span>;
}

/** Search snippets mark matches with \u0002…\u0003 (never HTML), so they are rendered as text with <mark>. */
export function Snippet({ text }: { text: string }) {
  const parts: { text: string; match: boolean }[] = [];
  let rest = text;
  while (rest.length > 0) {
    const start = rest.indexOf('\u0002');
    const end = start < 0 ? -1 : rest.indexOf('\u0003', start);
    if (start < 0 || end < 0) {
      parts.push({ text: rest, match: false });
      break;
    }
    if (start > 0) parts.push({ text: rest.slice(0, start), match: false });
    parts.push({ text: rest.slice(start + 1, end), match: true });
    rest = rest.slice(end + 1);
  }
  return (
    <>{parts.map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}</>
  );
}

export function formatEta(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '';
  if (seconds < 60) return `${Math.round(seconds)} s left`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min left`;
  return `${(seconds / 3600).toFixed(1)} h left`;
}

export function ProgressBar({ progress, label }: { progress: JobProgress; label?: string }) {
  const fraction = progress.total > 0 ? Math.min(1, progress.done / progress.total) : 0;
  return (
    <div
      className="progress"
      role="progressbar"
      aria-valuenow={progress.done}
      aria-valuemax={progress.total}
      aria-label={label}
    >
      <div className="progress-fill" style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
      <span className="progress-text">
        {progress.done} / {progress.total || '?'}
        {progress.failed ? `, ${progress.failed} failed` : ''}
        {progress.etaSeconds !== undefined ? ` · ${formatEta(progress.etaSeconds)}` : ''}
        {progress.message ? ` · ${progress.message}` : ''}
      </span>
    </div>
  );
}
