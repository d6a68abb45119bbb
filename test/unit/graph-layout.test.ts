// The execution graph's layout (renderer): labelled edges that share a span, or whose labels are wider than the gap
// between states, get rows of their own, so no two label boxes overlap; unlabelled parallel edges fan out.
import { describe, expect, it } from 'vitest';
import { fitText, layoutGraph, type Box } from '../../src/renderer/src/select/graph-layout';

const measure = (text: string): number => text.length * 7;
const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('layoutGraph', () => {
  it('keeps the labels of many parallel and neighbouring edges apart, inside the picture', () => {
    const spans: [number, number][] = [
      [0, 1],
      [0, 1],
      [0, 1],
      [0, 1],
      [1, 2],
      [1, 2],
      [2, 3],
      [0, 2],
      [1, 3],
      [0, 3],
      [3, 4],
      [2, 4],
    ];
    const edges = spans.map(([src, tgt], candidate) => ({
      candidate,
      src,
      tgt,
      label: `household-put-object-in-receptacle-${candidate} · w 0.88 · wins stage 1`,
    }));
    const layout = layoutGraph(5, edges, measure, 700);
    const boxes = layout.edges.map((e) => e.labelBox!);
    for (let i = 0; i < boxes.length; i++) {
      expect(boxes[i]!.x).toBeGreaterThanOrEqual(0);
      expect(boxes[i]!.x + boxes[i]!.width).toBeLessThanOrEqual(700);
      expect(boxes[i]!.y).toBeGreaterThan(layout.headerBottom);
      for (let j = i + 1; j < boxes.length; j++) expect(overlaps(boxes[i]!, boxes[j]!)).toBe(false);
    }
    // Each labelled arc's top (a quadratic's apex is halfway to its control point) sits just under its label.
    for (const e of layout.edges) {
      const apex = (e.y0 + e.cy) / 2;
      expect(apex).toBeGreaterThan(e.labelAt!.y);
      expect(apex - e.labelAt!.y).toBeLessThan(8);
    }
  });

  it('fans unlabelled parallel edges out and keeps them under the labelled ones', () => {
    const edges = [0, 1, 2, 3].map((candidate) => ({ candidate, src: 0, tgt: 1, label: null }));
    const layout = layoutGraph(3, [...edges, { candidate: 9, src: 0, tgt: 2, label: 'x · w 0.5' }], measure);
    const apexes = layout.edges.slice(0, 4).map((e) => (e.y0 + e.cy) / 2);
    expect(new Set(apexes).size).toBe(4);
    const labelled = layout.edges[4]!;
    expect(Math.min(...apexes)).toBeGreaterThan((labelled.y0 + labelled.cy) / 2);
  });

  it('fitText cuts with an ellipsis to the width', () => {
    expect(fitText('short', 100, measure)).toBe('short');
    const cut = fitText('Stage 2: Add a GitHub Actions workflow that runs the tests', 140, measure);
    expect(cut.endsWith('…')).toBe(true);
    expect(measure(cut)).toBeLessThanOrEqual(140);
  });

  it('fitText keeps the longest prefix that fits, measuring a long stage text a few dozen times', () => {
    const text = Array.from({ length: 600 }, (_, i) => `Sub-task ${i} done.`).join(' ');
    let calls = 0;
    const counted = (t: string) => {
      calls++;
      return measure(t);
    };
    const cut = fitText(text, 300, counted);
    expect(calls).toBeLessThan(40);
    expect(measure(cut)).toBeLessThanOrEqual(300);
    const kept = cut.length - 1;
    expect(text.startsWith(cut.slice(0, kept))).toBe(true);
    expect(measure(`${text.slice(0, kept + 1)}…`)).toBeGreaterThan(300);
    expect(fitText('abcdef', 1, measure)).toBe('a…');
  });
});
