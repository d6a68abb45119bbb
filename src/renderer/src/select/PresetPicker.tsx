// The scoring preset of a selection and what it will cost on this machine: pairs, tokens and seconds per engine,
// estimated before the run from the throughput the engines showed here (or a default until they have run).
import type { SelectionEstimate, SelectionPreset } from '../../../shared/api';
import { presetDescriptions, selectionPresets } from '../../../shared/api';
import type { ApiErrorData } from '../../../shared/errors';
import { localModelsPlace } from '../../../shared/settings-places';

export function formatSeconds(s: number): string {
  if (s < 1) return `${Math.max(1, Math.round(s * 1000))} ms`;
  if (s < 120) return `${s.toFixed(1)} s`;
  return `${(s / 60).toFixed(1)} min`;
}

export interface PresetPickerProps {
  preset: SelectionPreset | '';
  /** The preset Settings choose when none is picked here. */
  settingsPreset?: SelectionPreset;
  onPreset: (p: SelectionPreset | '') => void;
  /** The estimate of the preset now chosen; null while it loads or when it failed. */
  estimate: SelectionEstimate | null;
  estimateError: ApiErrorData | null;
  /** No task typed yet, so there is nothing to estimate. */
  noTask: boolean;
}

/** "Scoring": a preset, or '' for the one the Settings choose (named when known). */
export function PresetSelect({
  name,
  preset,
  settingsPreset,
  onPreset,
  title,
}: Pick<PresetPickerProps, 'preset' | 'settingsPreset' | 'onPreset'> & { name: string; title?: string }) {
  return (
    <label title={title}>
      Scoring{' '}
      <select
        name={name}
        aria-label="Scoring preset"
        value={preset}
        onChange={(e) => onPreset(e.target.value as SelectionPreset | '')}
      >
        <option value="">{settingsPreset ? `${settingsPreset} (from Settings)` : 'from Settings'}</option>
        {selectionPresets.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
    </label>
  );
}

export function PresetPicker({
  preset,
  settingsPreset,
  onPreset,
  estimate,
  estimateError,
  noTask,
}: PresetPickerProps) {
  const shown = preset || settingsPreset;
  // A model preset with no model behind it scores with the lexical engine: say so next to its name.
  const offlineInstead =
    shown !== undefined &&
    shown !== 'offline' &&
    estimateError === null &&
    estimate !== null &&
    estimate.engines.length > 0 &&
    estimate.engines.every((e) => e.tier === 'lexical');
  return (
    <div className="row wrap preset-picker">
      <PresetSelect name="preset" preset={preset} settingsPreset={settingsPreset} onPreset={onPreset} />
      {shown && !offlineInstead && <span className="muted small">{presetDescriptions[shown]}</span>}
      {offlineInstead && (
        <span className="small warn-text" data-testid="preset-fallback">
          No model is set up for “{shown}”, so it scores with the offline (lexical) engine. Add models in{' '}
          {localModelsPlace}.
        </span>
      )}
      <span className="spacer" />
      <span
        className={estimateError ? 'small warn-text' : 'small'}
        data-testid="selection-estimate"
        title={estimate?.notes.join('\n')}
      >
        {noTask
          ? 'Type a task to see the cost'
          : estimateError
            ? estimateError.message
            : estimate
              ? `Estimate: up to ${estimate.pairs} pairs, ${estimate.tokens.toLocaleString()} tokens, about ${formatSeconds(
                  estimate.seconds,
                )} (${estimate.engines
                  .map((e) => `${e.tier}${e.measured ? '' : ', not measured yet'}`)
                  .join('; ')})`
              : 'Estimating…'}
      </span>
    </div>
  );
}
