// A value built at its first use rather than at import: zod schemas cost milliseconds each to build, and the host
// answers its first calls before any of them is needed.
export function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}
