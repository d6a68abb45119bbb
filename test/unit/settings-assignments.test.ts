// `settings set KEY=VALUE` as the CLI reads it: numbers stay numbers, and a nullable number (an abstain threshold)
// takes "null" to turn it off and a number to set it again.
import { describe, expect, it } from 'vitest';
import { settingsPatchFrom } from '../../src/cli/settings-assignments';
import { settingsSchema } from '../../src/shared/settings';

const defaults = settingsSchema().parse({});

describe('settings assignments', () => {
  it('reads a nullable number as null or a number, and keeps the section’s other values', () => {
    const off = settingsPatchFrom(defaults, ['selection.abstainBelow.offline=null']);
    expect(off.patch.selection?.abstainBelow).toEqual({ ...defaults.selection.abstainBelow, offline: null });
    expect(off.changes).toEqual([{ key: 'selection.abstainBelow.offline', from: -0.7, to: null }]);
    const on = settingsPatchFrom(
      {
        ...defaults,
        selection: {
          ...defaults.selection,
          abstainBelow: { ...defaults.selection.abstainBelow, exact: null },
        },
      },
      ['selection.abstainBelow.exact=-2'],
    );
    expect(on.patch.selection?.abstainBelow?.exact).toBe(-2);
  });

  it('reads a number setting as a number and leaves other text for the schema to refuse', () => {
    expect(settingsPatchFrom(defaults, ['selection.recallK=40']).patch.selection?.recallK).toBe(40);
    expect(settingsPatchFrom(defaults, ['selection.recallK=many']).patch.selection?.recallK).toBe('many');
  });
});
