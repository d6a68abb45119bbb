// Line diffs as the core computes them: a unified view with both line numbers, and a side-by-side view for conflicts.
import type { DiffHunkLine, DiffLine } from '../../../shared/api';
import './sources.css';

const mark = { add: '+', del: '−', same: ' ' } as const;

export function UnifiedDiff({ lines, label }: { lines: DiffHunkLine[]; label: string }) {
  if (lines.every((l) => l.op === 'same' || l.op === 'gap'))
    return <p className="muted small">SKILL.md unchanged.</p>;
  return (
    <div className="diff" role="region" aria-label={label}>
      {lines.map((line, i) =>
        line.op === 'gap' ? (
          <div key={i} className="diff-gap">
            … {line.skipped} unchanged line{line.skipped === 1 ? '' : 's'}
          </div>
        ) : (
          <div key={i} className={`diff-line diff-${line.op}`} data-op={line.op}>
            <span className="ln">{line.oldLine ?? ''}</span>
            <span className="ln">{line.newLine ?? ''}</span>
            <span>{mark[line.op]}</span>
            <span>{line.text}</span>
          </div>
        ),
      )}
    </div>
  );
}

/** Pairs each removed run with the added run after it, so a changed line sits beside its new version. */
function sideBySideRows(lines: DiffLine[]): [DiffLine | null, DiffLine | null][] {
  const rows: [DiffLine | null, DiffLine | null][] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.op === 'same') {
      rows.push([line, line]);
      i++;
      continue;
    }
    const dels: DiffLine[] = [];
    const adds: DiffLine[] = [];
    while (i < lines.length && lines[i]!.op === 'del') dels.push(lines[i++]!);
    while (i < lines.length && lines[i]!.op === 'add') adds.push(lines[i++]!);
    for (let k = 0; k < Math.max(dels.length, adds.length); k++)
      rows.push([dels[k] ?? null, adds[k] ?? null]);
  }
  return rows;
}

export function SideBySideDiff({
  lines,
  left,
  right,
  label,
}: {
  lines: DiffLine[];
  left: string;
  right: string;
  label: string;
}) {
  const cell = (line: DiffLine | null, side: 'old' | 'new') =>
    line ? (
      <div className={`cell diff-${line.op}`} data-op={line.op}>
        <span className="ln">{side === 'old' ? line.oldLine : line.newLine}</span>
        <span>{line.text}</span>
      </div>
    ) : (
      <div className="cell empty" />
    );
  return (
    <div role="region" aria-label={label}>
      <div className="diff-side-head">
        <strong>{left}</strong>
        <strong>{right}</strong>
      </div>
      <div className="diff diff-side">
        {sideBySideRows(lines).map(([a, b], i) => (
          <div key={i} style={{ display: 'contents' }}>
            {cell(a, 'old')}
            {cell(b, 'new')}
          </div>
        ))}
      </div>
    </div>
  );
}
