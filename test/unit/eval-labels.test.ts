// The JSONL label format: what is accepted, and that every bad line is named without importing a half set.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLabelJsonl, toJsonl } from '../../src/core/eval/label-format';

const repoRoot = path.resolve(import.meta.dirname, '../..');

describe('label JSONL', () => {
  it('reads the shipped sample tasks', () => {
    const items = parseLabelJsonl(readFileSync(path.join(repoRoot, 'resources/sample-tasks.jsonl'), 'utf8'));
    expect(items.length).toBeGreaterThanOrEqual(20);
    for (const i of items) {
      expect(i.gold.length).toBeGreaterThan(0);
      if (i.parse) expect(i.parse.states).toHaveLength(i.parse.subtasks.length + 1);
    }
  });

  it('round-trips through toJsonl', () => {
    const text =
      '{"id":"a","task":"t","gold":["x"],"groups":[["x","y"]],"parse":{"subtasks":["s"],"states":["0","1"]},"domain":"d"}\n';
    expect(parseLabelJsonl(toJsonl(parseLabelJsonl(text)))).toEqual(parseLabelJsonl(text));
  });

  it('takes an empty gold as "no skill fits" and avoid as skills that must not be answered', () => {
    const items = parseLabelJsonl(
      [
        '{"id":"none","task":"book me a flight","gold":[]}',
        '{"id":"neg","task":"write a haiku","gold":[],"avoid":["pdf-tools"]}',
        '{"id":"pos","task":"merge two pdfs","gold":["pdf-tools"],"avoid":["docx-tools"]}',
      ].join('\n'),
    );
    expect(items.map((i) => [i.gold, i.avoid])).toEqual([
      [[], undefined],
      [[], ['pdf-tools']],
      [['pdf-tools'], ['docx-tools']],
    ]);
    expect(() => parseLabelJsonl('{"id":"x","task":"t","gold":["a"],"avoid":["a"]}')).toThrow(/bad line/);
  });

  it('lists every bad line with its number and imports nothing', () => {
    const text = [
      '{"id":"a","task":"t","gold":["x"]}',
      'not json',
      '{"id":"b","task":"t","gold":[],"groups":[["x"]]}',
      '{"id":"c","task":"t","gold":["x"],"parse":{"subtasks":["s"],"states":["only one"]}}',
      '{"id":"a","task":"t","gold":["x"]}',
      '{"id":"d","task":"t","gold":["x"],"golden":["y"]}',
    ].join('\n');
    try {
      parseLabelJsonl(text);
      expect.unreachable();
    } catch (e) {
      const details = (e as { code: string; details: { errors: { line: number; message: string }[] } })
        .details;
      expect((e as { code: string }).code).toBe('VALIDATION_FAILED');
      expect(details.errors.map((x) => x.line)).toEqual([2, 3, 4, 5, 6]);
      expect(details.errors[1]!.message).toMatch(/groups need gold skills/);
      expect(details.errors[2]!.message).toMatch(/one more entry/);
      expect(details.errors[3]!.message).toMatch(/appears twice/);
    }
  });
});
