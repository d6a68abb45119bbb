// The cost side of a lab selection: the chosen preset, its estimate (asked once the inputs settle, asked again after
// a run has timed the engines), and the progress of the run in flight, followed by its requestId.
import { useEffect, useState } from 'react';
import type { SelectionPreset, SelectRequest, Variant } from '../../../shared/api';
import { useClient, useCuratorEvent } from '../app/context';
import { useApi } from '../app/use-api';
import type { ApiErrorData } from '../../../shared/errors';
import { needsEmbedderMessage } from '../../../shared/presets';
import { usePresetOutcome } from './preset-outcome';

export interface RunProgress {
  requestId: string;
  done: number;
  total: number;
  message: string;
  cancelling: boolean;
}

/** `value`, once it has stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function useSelectionCost(inputs: {
  task: string;
  variants: Variant[];
  recallK?: number;
  parse?: SelectRequest['parse'];
}) {
  const client = useClient();
  const [preset, setPreset] = useState<SelectionPreset | ''>('');
  const [progress, setProgress] = useState<RunProgress | null>(null);
  const settings = useApi('settings.get', {});
  const request = useSettled(
    inputs.task
      ? {
          task: inputs.task,
          variants: inputs.variants.length ? inputs.variants : (['full'] as Variant[]),
          preset: preset || undefined,
          recallK: inputs.recallK,
          parse: inputs.parse,
        }
      : null,
    300,
  );
  const wanted = preset || settings.data?.selection.preset;
  // A preset that cannot run here (no embedder) is said as the core would say it, without asking for an estimate it
  // would refuse (each refusal also logs a 503 in the console).
  const outcomeOf = usePresetOutcome();
  const cannotRun: ApiErrorData | null =
    wanted && outcomeOf(wanted) === 'cannot-run'
      ? { code: 'UNAVAILABLE', message: needsEmbedderMessage(wanted) }
      : null;
  const estimate = useApi('select.estimate', cannotRun ? null : request);
  // useApi keeps the last answer while the next loads, and an error beside it: show neither for another preset.
  const current =
    request && !cannotRun && estimate.data && (!wanted || estimate.data.preset === wanted)
      ? estimate.data
      : null;
  const estimateError = cannotRun
    ? request && cannotRun
    : request && !estimate.loading && (request.preset ?? '') === preset
      ? estimate.error
      : null;
  // The task the estimate shown answers for (the last answer stays while the next one loads).
  const answeredFor = estimate.dataKey ? (JSON.parse(estimate.dataKey) as { task: string }).task : null;
  useCuratorEvent((event) => {
    if (event.type !== 'select.progress') return;
    setProgress((p) =>
      p && p.requestId === event.requestId
        ? { ...p, done: event.done, total: event.total, message: event.message }
        : p,
    );
  });

  return {
    preset,
    setPreset,
    settingsPreset: settings.data?.selection.preset,
    /** No task yet: nothing to estimate. */
    noTask: inputs.task === '',
    estimate: estimateError ? null : current,
    estimateError,
    /** No estimate has answered for the task as typed now (typing, or asked and not answered yet). */
    pending: inputs.task !== '' && answeredFor !== inputs.task && !estimateError,
    /** The parse stored for this task text that a run without one will use, as the estimate says. */
    storedParse: (answeredFor === inputs.task && estimate.data?.storedParse) || null,
    /** Why the chosen preset cannot run here (no model for it), when the estimate says so. */
    unavailable: estimateError?.code === 'UNAVAILABLE' ? estimateError : null,
    progress,
    /** Starts following a run; returns the requestId to send with it. */
    begin(): string {
      const requestId = crypto.randomUUID();
      setProgress({ requestId, done: 0, total: 0, message: 'Starting', cancelling: false });
      return requestId;
    },
    /** The run ended: stop following it, and estimate again with the throughput it measured. */
    end(): void {
      setProgress(null);
      estimate.reload();
    },
    cancel(): void {
      if (!progress) return;
      setProgress({ ...progress, cancelling: true });
      void client.call('select.cancel', { requestId: progress.requestId });
    },
  };
}
