// What each scoring preset scores with given the models set up (as the core resolves it), and how the preset choosers
// name the Settings' preset: by what will actually score.
import { describe, expect, it } from 'vitest';
import {
  presetOutcome,
  selectionPresets,
  settingsPresetOption,
  type ModelsSetUp,
} from '../../src/shared/presets';
import { localModelsPlace } from '../../src/shared/settings-places';

const none: ModelsSetUp = { embedder: false, crossEncoder: false };
const both: ModelsSetUp = { embedder: true, crossEncoder: true };

describe('presetOutcome', () => {
  it('runs every preset as named when both models are set up', () => {
    for (const p of selectionPresets) expect(presetOutcome(p, both)).toBe('as-named');
  });

  it('without models: exact scores offline, fast and mixed cannot run, offline is itself', () => {
    expect(presetOutcome('exact', none)).toBe('offline-instead');
    expect(presetOutcome('fast', none)).toBe('cannot-run');
    expect(presetOutcome('mixed', none)).toBe('cannot-run');
    expect(presetOutcome('offline', none)).toBe('as-named');
  });

  it('with an embedder only: exact still scores offline; fast runs; mixed runs with the lexical engine in the reranker slot', () => {
    const embedderOnly = { embedder: true, crossEncoder: false };
    expect(presetOutcome('exact', embedderOnly)).toBe('offline-instead');
    expect(presetOutcome('fast', embedderOnly)).toBe('as-named');
    expect(presetOutcome('mixed', embedderOnly)).toBe('as-named');
  });
});

describe('settingsPresetOption', () => {
  it('names the offline engine, not the Settings preset, when that preset has no model behind it', () => {
    expect(settingsPresetOption('exact', 'offline-instead')).toBe(
      `offline (exact needs a model: ${localModelsPlace})`,
    );
    expect(settingsPresetOption('exact', 'as-named')).toBe('exact (from Settings)');
    expect(settingsPresetOption('fast', 'cannot-run')).toContain(localModelsPlace);
    expect(settingsPresetOption('exact', undefined)).toBe('exact (from Settings)');
    expect(settingsPresetOption(undefined)).toBe('from Settings');
  });
});
