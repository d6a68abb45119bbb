// Small SVG charts for the evaluation screen: bars per variant for a metric, coverage and precision against answer
// size, and the answer-size distribution of all variants on one axis.
import type { VariantSummary } from '../../../shared/api';
import { seriesClass } from './series';

export function variantLabel(m: { variant: string; k?: number }): string {
  return m.k !== undefined ? `${m.variant} (k=${m.k})` : m.variant;
}

export function MetricBars({
  title,
  rows,
  metric,
}: {
  title: string;
  rows: VariantSummary[];
  metric: (m: VariantSummary) => number | undefined;
}) {
  const barHeight = 20;
  const labelWidth = 130;
  const width = 360;
  const height = rows.length * (barHeight + 6) + 24;
  return (
    <figure className="chart" aria-label={`${title} by variant`}>
      <figcaption>{title}</figcaption>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img">
        {rows.map((m, i) => {
          const v = metric(m);
          const y = i * (barHeight + 6) + 4;
          const w = v === undefined ? 0 : Math.max(0, Math.min(1, v)) * (width - labelWidth - 50);
          return (
            <g key={variantLabel(m)}>
              <text x={labelWidth - 6} y={y + barHeight * 0.7} textAnchor="end" className="chart-label">
                {variantLabel(m)}
              </text>
              <rect x={labelWidth} y={y} width={w} height={barHeight} className="chart-bar" rx={3} />
              <text x={labelWidth + w + 4} y={y + barHeight * 0.7} className="chart-value">
                {v === undefined ? 'n/a' : v.toFixed(2)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** Stage coverage (●) and precision (■) of each variant against its mean answer size: up and left is better. */
export function QualityVsSize({ rows }: { rows: VariantSummary[] }) {
  const width = 420;
  const height = 240;
  // Room on the right for the sideways nudge of the last variants at the largest size.
  const pad = { left: 44, right: 16 + ((rows.length - 1) / 2) * 5, top: 12, bottom: 36 };
  const maxSize = Math.max(1, Math.ceil(Math.max(...rows.map((m) => m.meanAnswerSize))));
  const x = (size: number) => pad.left + (size / maxSize) * (width - pad.left - pad.right);
  const y = (v: number) => pad.top + (1 - v) * (height - pad.top - pad.bottom);
  const ticks = Array.from({ length: maxSize + 1 }, (_, i) => i);
  return (
    <figure className="chart" aria-label="Coverage and precision against answer size">
      <figcaption>Coverage ● and precision ■ vs mean answer size</figcaption>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img">
        {[0, 0.25, 0.5, 0.75, 1].map((v) => (
          <g key={v}>
            <line x1={pad.left} x2={width - pad.right} y1={y(v)} y2={y(v)} className="chart-grid" />
            <text x={pad.left - 6} y={y(v) + 4} textAnchor="end" className="chart-label">
              {v.toFixed(2)}
            </text>
          </g>
        ))}
        {ticks.map((t) => (
          <text key={t} x={x(t)} y={height - pad.bottom + 16} textAnchor="middle" className="chart-label">
            {t}
          </text>
        ))}
        <text
          x={(pad.left + width - pad.right) / 2}
          y={height - 4}
          textAnchor="middle"
          className="chart-label"
        >
          skills per answer (mean)
        </text>
        {rows.map((m, i) => {
          // Variants of the same size would hide each other: each is nudged sideways by its place in the list.
          const cx = x(m.meanAnswerSize) + (i - (rows.length - 1) / 2) * 5;
          const tone = seriesClass(m);
          return (
            <g key={variantLabel(m)} className={tone} data-variant={variantLabel(m)}>
              <title>
                {`${variantLabel(m)}: coverage ${m.stageCoverage.toFixed(2)}, precision ${m.precision.toFixed(2)}, size ${m.meanAnswerSize.toFixed(2)}`}
              </title>
              <line x1={cx} x2={cx} y1={y(m.stageCoverage)} y2={y(m.precision)} className="chart-link" />
              <circle cx={cx} cy={y(m.stageCoverage)} r={5} className="chart-point" />
              <rect x={cx - 4} y={y(m.precision) - 4} width={8} height={8} className="chart-point" />
            </g>
          );
        })}
      </svg>
      <SeriesLegend rows={rows} />
    </figure>
  );
}

function SeriesLegend({ rows }: { rows: VariantSummary[] }) {
  return (
    <div className="chart-legend small">
      {rows.map((m) => (
        <span key={variantLabel(m)} className={seriesClass(m)}>
          <svg width={10} height={10} aria-hidden>
            <circle cx={5} cy={5} r={4} className="chart-point" />
          </svg>{' '}
          {variantLabel(m)}
        </span>
      ))}
    </div>
  );
}

/** How many tasks got answers of each size, all variants on one shared axis (share of tasks). */
export function SizeDistribution({ rows }: { rows: VariantSummary[] }) {
  const sizes = [...new Set(rows.flatMap((m) => Object.keys(m.answerSizes).map(Number)))].sort(
    (a, b) => a - b,
  );
  const groupWidth = Math.max(28, rows.length * 10 + 12);
  const bar = (groupWidth - 12) / Math.max(1, rows.length);
  const plot = 120;
  const left = 36;
  const width = left + sizes.length * groupWidth + 10;
  const height = plot + 44;
  return (
    <figure className="chart" aria-label="Answer size distribution">
      <figcaption>Share of tasks by answer size</figcaption>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img">
        {[0, 0.5, 1].map((v) => (
          <g key={v}>
            <line
              x1={left}
              x2={width - 6}
              y1={10 + (1 - v) * plot}
              y2={10 + (1 - v) * plot}
              className="chart-grid"
            />
            <text x={left - 4} y={14 + (1 - v) * plot} textAnchor="end" className="chart-label">
              {Math.round(v * 100)}%
            </text>
          </g>
        ))}
        {sizes.map((size, g) => (
          <g key={size}>
            {rows.map((m, i) => {
              const share = (m.answerSizes[String(size)] ?? 0) / Math.max(1, m.tasks);
              const h = share * plot;
              return (
                <rect
                  key={variantLabel(m)}
                  className={`${seriesClass(m)} chart-series-bar`}
                  x={left + g * groupWidth + 6 + i * bar}
                  y={10 + plot - h}
                  width={Math.max(1, bar - 1)}
                  height={h}
                >
                  <title>{`${variantLabel(m)}: ${m.answerSizes[String(size)] ?? 0} of ${m.tasks} tasks with ${size} skills`}</title>
                </rect>
              );
            })}
            <text
              x={left + g * groupWidth + groupWidth / 2}
              y={plot + 28}
              textAnchor="middle"
              className="chart-label"
            >
              {size}
            </text>
          </g>
        ))}
      </svg>
      <SeriesLegend rows={rows} />
    </figure>
  );
}
