// One file of a skill as plain text with line numbers (skill text is untrusted: never HTML), the finding's line
// marked and scrolled into view.
import { useEffect, useRef } from 'react';
import { ErrorNote } from '../app/ErrorNote';
import { useApi } from '../app/use-api';

/** Lines shown around the marked one when a file is longer than this. */
const around = 2000;

export function FileTextView({
  skillId,
  path,
  line,
}: {
  skillId: number;
  path: string;
  line: number | null;
}) {
  const file = useApi('library.file', { skillId, path });
  const hit = useRef<HTMLDivElement>(null);
  const text = file.data?.text ?? null;
  useEffect(() => {
    hit.current?.scrollIntoView({ block: 'center' });
  }, [text, line]);
  if (file.error) return <ErrorNote error={file.error} />;
  if (!file.data) return <p className="muted small">Loading {path}…</p>;
  if (text === null)
    return (
      <p className="muted small" data-testid="file-unavailable">
        {path} cannot be shown: {file.data.unavailable}
      </p>
    );
  const lines = text.split('\n');
  const from = line !== null && lines.length > 2 * around ? Math.max(0, line - 1 - around) : 0;
  const to =
    line !== null && lines.length > 2 * around ? Math.min(lines.length, line - 1 + around) : lines.length;
  return (
    <div className="audit-file-text" data-testid="file-text" data-path={path} aria-label={`${path} text`}>
      {from > 0 && <div className="muted small">… {from} lines before</div>}
      {lines.slice(from, to).map((content, i) => {
        const no = from + i + 1;
        const marked = no === line;
        return (
          <div
            key={no}
            ref={marked ? hit : undefined}
            className={marked ? 'line hit' : 'line'}
            data-line={no}
            aria-current={marked ? 'true' : undefined}
          >
            <span className="line-no">{no}</span>
            <span>{content || ' '}</span>
          </div>
        );
      })}
      {to < lines.length && <div className="muted small">… {lines.length - to} lines after</div>}
    </div>
  );
}
