// Small SVG charts for the evaluation screen: one bar per variant for a metric, and answer-size histograms.
import type { VariantSummary } from '../../../shared/api';

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

export function SizeHistogram({ metrics }: { metrics: VariantSummary }) {
  const sizes = Object.entries(metrics.answerSizes)
    .map(([size, count]) => [Number(size), count] as const)
    .sort((a, b) => a[0] - b[0]);
  const max = Math.max(1, ...sizes.map(([, c]) => c));
  const barWidth = 22;
  const height = 90;
  const width = Math.max(120, sizes.length * (barWidth + 6) + 10);
  return (
    <figure className="chart" aria-label={`Answer sizes of ${variantLabel(metrics)}`}>
      <figcaption>{variantLabel(metrics)}</figcaption>
      <svg width={width} height={height + 44} viewBox={`0 0 ${width} ${height + 44}`} role="img">
        {sizes.map(([size, count], i) => {
          const h = (count / max) * height;
          const x = 6 + i * (barWidth + 6);
          return (
            <g key={size}>
              <rect x={x} y={height - h + 18} width={barWidth} height={h} className="chart-bar" rx={2} />
              <text x={x + barWidth / 2} y={height - h + 14} textAnchor="middle" className="chart-value">
                {count}
              </text>
              <text x={x + barWidth / 2} y={height + 34} textAnchor="middle" className="chart-label">
                {size}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
