// "1 candidate", "2 candidates": a count with its noun, for the sentences the screens and the CLI print.
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
