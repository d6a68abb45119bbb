// A few names said in a line ("alpha, beta, gamma and 2 more"), where a count alone ("5 skills") would not say which.

/** The first `shown` names joined by commas, then "and N more" for the rest. */
export function nameList(names: readonly string[], shown = 3): string {
  if (names.length <= shown) return names.join(', ');
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

/** The first `shown` names joined by commas, then "…" when there are more. */
export function firstNames(names: readonly string[], shown = 5): string {
  return names.slice(0, shown).join(', ') + (names.length > shown ? ', …' : '');
}
