// The scoring preset of a selection and what it will cost on this machine: pairs, tokens and seconds per engine,
// estimated before the run from the throughput the engines showed here (or a default until they have run).
import type { SelectionEstimate, SelectionPreset } from '../../../shared/api';
import { presetDescriptions, selectionPresets } from '../../../shared/api';
import type { ApiErrorData } from '../../../shared/errors';
import {
  needsEmbedderMessage,
  offlineInsteadNote,
  settingsPresetOption,
  type PresetOutcome,
} from '../../../shared/presets';
import { usePresetOutcome } from './preset-outcome';
import { countOf } from '../../../shared/count-words';

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

/**
 * "Scoring": a preset, or '' for the one the Settings choose, named by what will score (the offline engine when the
 * Settings' preset has no model behind it).
 */
export function PresetSelect({
  name,
  preset,
  settingsPreset,
  onPreset,
  title,
}: Pick<PresetPickerProps, 'preset' | 'settingsPreset' | 'onPreset'> & { name: string; title?: string }) {
  const outcome = usePresetOutcome();
  return (
    <label title={title}>
      Scoring{' '}
      <select
        name={name}
        aria-label="Scoring preset"
        value={preset}
        onChange={(e) => onPreset(e.target.value as SelectionPreset | '')}
      >
        <option value="">
          {settingsPresetOption(settingsPreset, settingsPreset && outcome(settingsPreset))}
        </option>
        {selectionPresets.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * One line on the chosen preset: what it does, or that it scores with the offline engine for want of a model, or that it
 * cannot run without an embedder.
 */
export function PresetNote({ preset, outcome }: { preset: SelectionPreset; outcome?: PresetOutcome }) {
  if (outcome === 'offline-instead')
    return (
      <span className="small warn-text" data-testid="preset-fallback">
        {offlineInsteadNote(preset)}
      </span>
    );
  if (outcome === 'cannot-run')
    return (
      <span className="small warn-text" data-testid="preset-unavailable">
        {needsEmbedderMessage(preset)}
      </span>
    );
  return <span className="muted small">{presetDescriptions[preset]}</span>;
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
  const outcomeOf = usePresetOutcome();
  // A model preset with no model behind it scores with the lexical engine: say so next to its name. Before a task is
  // typed, from the models set up; then from the engines the estimate names (a preset that cannot run is said once,
  // by the estimate's error).
  const offlineInstead =
    shown !== undefined &&
    shown !== 'offline' &&
    estimateError === null &&
    estimate !== null &&
    estimate.engines.length > 0 &&
    estimate.engines.every((e) => e.tier === 'lexical');
  const outcome: PresetOutcome | undefined = noTask
    ? shown && outcomeOf(shown)
    : offlineInstead
      ? 'offline-instead'
      : 'as-named';
  return (
    <div className="row wrap preset-picker">
      <PresetSelect name="preset" preset={preset} settingsPreset={settingsPreset} onPreset={onPreset} />
      {shown && <PresetNote preset={shown} outcome={outcome} />}
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
              ? `Estimate: up to ${countOf(estimate.pairs, 'pair')}, ${estimate.tokens.toLocaleString()} tokens, about ${formatSeconds(
                  estimate.seconds,
                )} (${estimate.engines
                  .map((e) => `${e.tier}${e.measured ? '' : ', not measured yet'}`)
                  .join('; ')})`
              : 'Estimating…'}
      </span>
    </div>
  );
}
