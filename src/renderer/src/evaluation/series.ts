// The chart series of an evaluation's variants.
import { variants, type Variant } from '../../../shared/api';

/**
 * A variant's colour (one per variant, the same in every chart and run) and, for a ranked one, its k as the fill: solid
 * for k = 1, paler for 2, hollow for 3 and more. Counting rows instead gave dense (k=1) full's colour.
 */
export function seriesClass(m: { variant: string; k?: number }): string {
  const tone = `series-${Math.max(0, variants.indexOf(m.variant as Variant)) % 6}`;
  return m.k !== undefined && m.k > 1 ? `${tone} k-shade-${Math.min(m.k, 3)}` : tone;
}
