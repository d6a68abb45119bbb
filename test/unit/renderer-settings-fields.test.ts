// The Settings screen is generated from the schema: every tunable has a control with its bounds or choices.
import { describe, expect, it } from 'vitest';
import { unitFor, wordsFor } from '../../src/renderer/src/settings/field-words';
import { labelFor, settingsFields, type Field } from '../../src/renderer/src/settings/schema-fields';
import { defaultSettings } from '../../src/shared/settings';

function leaves(fields: Field[], prefix = ''): Map<string, Field> {
  const out = new Map<string, Field>();
  for (const f of fields) {
    const key = prefix ? `${prefix}.${f.key}` : f.key;
    if (f.kind === 'group') for (const [k, v] of leaves(f.fields, key)) out.set(k, v);
    else out.set(key, f);
  }
  return out;
}

function valueLeaves(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => valueLeaves(v, prefix ? `${prefix}.${k}` : k));
}

describe('settings form fields', () => {
  const fields = leaves(settingsFields());

  it('has one control for every setting the schema defines', () => {
    expect([...fields.keys()].sort()).toEqual(valueLeaves(defaultSettings()).sort());
  });

  it('carries the bounds of numbers and the choices of enums', () => {
    expect(fields.get('selection.recallK')).toMatchObject({
      kind: 'number',
      min: 1,
      max: 500,
      integer: true,
      defaultValue: 30,
    });
    expect(fields.get('llm.temperature')).toMatchObject({ kind: 'number', min: 0, max: 2, integer: false });
    expect(fields.get('models.embedder.device')).toMatchObject({
      kind: 'enum',
      options: ['auto', 'cpu', 'cuda', 'dml', 'coreml'],
    });
    expect(fields.get('llm.baseURL')).toMatchObject({ kind: 'string' });
  });
});

describe('settings labels', () => {
  const fields = leaves(settingsFields());

  // The form shows a duration in seconds and a size in KiB/MiB next to its box: a label that still says "(ms)" or
  // "(bytes)" contradicts the number the user reads ("Timeout (ms)" beside "60 s").
  it('never name a raw unit the form does not show', () => {
    const contradicting = [...fields]
      .filter(([path, f]) => f.kind === 'number' && unitFor(path, f.defaultValue) !== undefined)
      .map(([path, f]) => `${path}: ${wordsFor(path)?.label ?? labelFor(f.key)}`)
      .filter((line) => /\((ms|bytes)\)/i.test(line));
    expect(contradicting).toEqual([]);
  });
});

describe('settings help', () => {
  // A curator tuning the selection meets "k", "tokens scored" and a calibration with no word of what they change.
  it('says what every selection setting does', () => {
    const silent = [...leaves(settingsFields()).keys()].filter(
      (path) => path.startsWith('selection.') && !wordsFor(path)?.help,
    );
    expect(silent).toEqual([]);
  });
});
