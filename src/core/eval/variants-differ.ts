// Whether the variants of one task disagree. Ranked variants are compared at each k, with each other and with the
// adaptive variants; one ranked variant at k = 1 against itself at k = 2 is not a disagreement (its F1 almost always
// moves with k, which made every task "differ").
export interface VariantOutcome {
  k?: number;
  f1: number;
}

export function variantsDiffer(rows: readonly VariantOutcome[]): boolean {
  const ks = [...new Set(rows.flatMap((r) => (r.k ? [r.k] : [])))];
  const groups = ks.length === 0 ? [rows] : ks.map((k) => rows.filter((r) => !r.k || r.k === k));
  return groups.some((group) => new Set(group.map((r) => r.f1)).size > 1);
}
