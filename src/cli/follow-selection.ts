// A selection in the CLI: the estimate before it runs, pairs scored on stderr while it runs, Ctrl+C to cancel it.
import type { Core } from '../core';
import type { SelectionEstimate } from '../shared/api';
import { noModelHint } from '../shared/presets';

export function formatSeconds(s: number): string {
  if (s < 1) return `${Math.round(s * 1000)} ms`;
  if (s < 120) return `${s.toFixed(1)} s`;
  return `${(s / 60).toFixed(1)} min`;
}

/** `fallbackSaidLater`: the run's own report will say that a model preset scores offline, so this does not. */
export function printEstimate(
  e: SelectionEstimate,
  write: (line: string) => void,
  fallbackSaidLater = false,
): void {
  write(
    `estimate (${e.preset}): up to ${e.pairs} pairs, ${e.tokens} tokens, about ${formatSeconds(e.seconds)} on this machine`,
  );
  for (const x of e.engines)
    write(
      `  ${x.tier} ${x.engine}: ${x.pairs} pairs, ${x.tokens} tokens at ${Math.round(x.tokensPerSecond)} tokens/s${x.measured ? '' : ' (not measured yet)'}`,
    );
  for (const note of e.notes) write(`  ${note}`);
  // A model preset with no model behind it scores lexically: say so, as the lab does, with what to do.
  if (
    !fallbackSaidLater &&
    e.preset !== 'offline' &&
    e.engines.length > 0 &&
    e.engines.every((x) => x.tier === 'lexical')
  )
    write(
      `  No model is set up for "${e.preset}", so it scores with the offline (lexical) engine: ${noModelHint}`,
    );
}

/** Runs `start`, showing select.progress events for `requestId`; the first Ctrl+C cancels, a second one exits. */
export async function followSelection<T>(
  core: Core,
  requestId: string,
  quiet: boolean,
  start: () => Promise<T>,
): Promise<T> {
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write('\nCancelling the selection... (Ctrl+C again to quit now)\n');
    void core['select.cancel']({ requestId });
  };
  process.on('SIGINT', onSigint);
  const off = core.onEvent((event) => {
    if (quiet || event.type !== 'select.progress' || event.requestId !== requestId) return;
    const of = event.total > 0 ? `${event.done}/${event.total} pairs` : '';
    const line = `${event.message} ${of}`.trim();
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${line}`);
  });
  try {
    return await start();
  } finally {
    if (!quiet && process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    off();
    process.off('SIGINT', onSigint);
  }
}
