// What each scoring preset will score with here, from the engines the Settings fill (models.status), so the preset
// choosers name the offline engine rather than a model that is not set up.
import { useCallback } from 'react';
import { presetOutcome, type PresetOutcome, type SelectionPreset } from '../../../shared/presets';
import { useCuratorEvent } from '../app/context';
import { useApi } from '../app/use-api';

/** The outcome of a preset, or undefined while the engines are not known yet. */
export function usePresetOutcome(): (preset: SelectionPreset) => PresetOutcome | undefined {
  const status = useApi('models.status', {});
  const { reload } = status;
  useCuratorEvent((event) => {
    if (event.type === 'models.changed') reload();
  });
  const engines = status.data;
  return useCallback(
    (preset: SelectionPreset) => {
      if (!engines) return undefined;
      const setUp = (role: 'embedder' | 'reranker') =>
        engines.some((e) => e.role === role && e.engine !== 'lexical');
      return presetOutcome(preset, { embedder: setUp('embedder'), crossEncoder: setUp('reranker') });
    },
    [engines],
  );
}
