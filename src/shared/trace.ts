// The selection trace (METHOD.md "The trace"). Placeholder until the select engine's trace types move here.
export type SelectionTrace = Record<string, unknown> & { version: number; variant: string; answer: string[] };
