// Geometry of the execution graph: states on a line, each edge an arc; labelled arcs get their own row so no two labels
// overlap (parallel edges over the same span stack up), unlabelled arcs fan out by their index among parallels.

export interface GraphEdgeInput {
  candidate: number;
  src: number;
  tgt: number;
  /** Text drawn at the arc's top; null: the edge is drawn thin and named only in its tooltip. */
  label: string | null;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface GraphEdgeLayout extends GraphEdgeInput {
  x1: number;
  x2: number;
  /** Endpoints' y and the quadratic curve's control point. */
  y0: number;
  cx: number;
  cy: number;
  /** The label's text anchor (middle) and its box; null without a label. */
  labelAt: { x: number; y: number } | null;
  labelBox: Box | null;
}

export interface GraphLayout {
  width: number;
  height: number;
  baseline: number;
  /** Top of the stage headers' area's bottom: arcs stay below it. */
  headerBottom: number;
  x: (i: number) => number;
  edges: GraphEdgeLayout[];
}

export const nodeRadius = 13;
const margin = 40;
const headerHeight = 44;
const rowHeight = 20;
const labelHeight = 16;
const labelGap = 10;

/** Rows of label intervals: the first row where [from, to] overlaps nothing. */
function placeInRow(rows: [number, number][][], from: number, to: number): number {
  for (let r = 0; ; r++) {
    const row = (rows[r] ??= []);
    if (row.every(([a, b]) => to + labelGap <= a || from >= b + labelGap)) {
      row.push([from, to]);
      return r;
    }
  }
}

export function layoutGraph(
  n: number,
  edges: readonly GraphEdgeInput[],
  measure: (text: string) => number,
  width = 900,
): GraphLayout {
  const gap = (width - 2 * margin) / Math.max(1, n - 1);
  const x = (i: number): number => margin + i * gap;
  const labelled = edges
    .filter((e) => e.label !== null)
    .map((e) => {
      const w = measure(e.label!) + 8;
      const mid = (x(e.src) + x(e.tgt)) / 2;
      const center = Math.min(width - w / 2 - 2, Math.max(w / 2 + 2, mid));
      return { e, w, center };
    })
    .sort((a, b) => a.e.tgt - a.e.src - (b.e.tgt - b.e.src) || a.center - b.center);
  const rows: [number, number][][] = [];
  const rowOf = new Map<number, number>();
  for (const l of labelled)
    rowOf.set(l.e.candidate, placeInRow(rows, l.center - l.w / 2, l.center + l.w / 2));

  const unlabelledLift = 30;
  const baseline = headerHeight + 16 + rows.length * rowHeight + unlabelledLift + nodeRadius + 8;
  const y0 = baseline - nodeRadius;
  const parallel = new Map<string, number>();
  const laid = edges.map((e): GraphEdgeLayout => {
    const x1 = x(e.src);
    const x2 = x(e.tgt);
    const cx = (x1 + x2) / 2;
    const l = labelled.find((item) => item.e.candidate === e.candidate);
    if (!l) {
      const key = `${e.src}-${e.tgt}`;
      const k = parallel.get(key) ?? 0;
      parallel.set(key, k + 1);
      const apex = y0 - Math.min(unlabelledLift, 10 + 3 * k + 4 * (e.tgt - e.src));
      return { ...e, x1, x2, y0, cx, cy: 2 * apex - y0, labelAt: null, labelBox: null };
    }
    const row = rowOf.get(e.candidate)!;
    const apex = y0 - unlabelledLift - 6 - row * rowHeight;
    const textY = apex - 4;
    return {
      ...e,
      x1,
      x2,
      y0,
      cx,
      cy: 2 * apex - y0,
      labelAt: { x: l.center, y: textY },
      labelBox: { x: l.center - l.w / 2, y: textY - labelHeight + 4, width: l.w, height: labelHeight },
    };
  });
  return { width, height: baseline + 44, baseline, headerBottom: headerHeight, x, edges: laid };
}

/**
 * Cuts `text` with an ellipsis to fit `max` pixels (at least one character is kept). The cut is found by bisection: a
 * stage of a long parse has thousands of characters, and trying each length held the lab for seconds.
 */
export function fitText(text: string, max: number, measure: (text: string) => number): string {
  if (measure(text) <= max) return text;
  let fits = 1;
  let tooWide = text.length + 1;
  while (tooWide - fits > 1) {
    const mid = Math.floor((fits + tooWide) / 2);
    if (measure(`${text.slice(0, mid)}…`) <= max) fits = mid;
    else tooWide = mid;
  }
  return `${text.slice(0, fits)}…`;
}

let canvas: HTMLCanvasElement | null = null;
let canvasFont = '';

/**
 * Text width in pixels for `style` (weight and size, e.g. "600 12px") in the page's own font family, measured by the
 * browser (an estimate where no canvas exists).
 */
export function measureText(style: string): (text: string) => number {
  const ctx =
    typeof document !== 'undefined' ? (canvas ??= document.createElement('canvas')).getContext('2d') : null;
  if (!ctx) return (text) => text.length * 7.2;
  const family = getComputedStyle(document.body).fontFamily || 'sans-serif';
  const font = `${style} ${family}`;
  return (text) => {
    // Setting the font parses it: only when another measurer changed it.
    if (canvasFont !== font) ctx.font = canvasFont = font;
    return ctx.measureText(text).width;
  };
}
