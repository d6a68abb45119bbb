// The fast preset's calibration: the embedder's cosine mapped to log-odds, r = scale * (cos - center), so that
// sigma(r) reads as a probability like the cross-encoder's. Per model family, overridable in Settings; the trace
// records the numbers used. Why these defaults: docs/METHOD-notes.md ("The fast preset's calibration").
import type { EmbedderCalibration } from '../../shared/presets';
import type { Settings } from '../../shared/settings';

const families: { pattern: RegExp; scale: number; center: number; name: string }[] = [
  // Qwen3-Embedding with an instruction: related pairs score about 0.6-0.8, unrelated ones about 0.1-0.2.
  { pattern: /qwen3[-_ ]?embedding/i, scale: 20, center: 0.4, name: 'Qwen3-Embedding default' },
];

/** Any other embedder: a neutral guess (cos 0.5 = even odds, +-0.3 = about +-3 log-odds); set it in Settings. */
const generic = { scale: 10, center: 0.5, name: 'generic default' };

export function defaultCalibration(modelId: string): EmbedderCalibration {
  const f = families.find((x) => x.pattern.test(modelId)) ?? generic;
  return { scale: f.scale, center: f.center, source: f.name };
}

/** The model's default, or the numbers set in Settings when they are chosen there. */
export function embedderCalibration(
  modelId: string,
  settings: Settings['selection']['embedderCalibration'],
): EmbedderCalibration {
  if (settings.use === 'custom')
    return { scale: settings.scale, center: settings.center, source: 'settings' };
  return defaultCalibration(modelId);
}

export function calibratedScore(cos: number, c: Pick<EmbedderCalibration, 'scale' | 'center'>): number {
  return c.scale * (cos - c.center);
}
