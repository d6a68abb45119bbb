// The tags of the rows on screen, fetched as rows appear (tags.of) and forgotten when the library changes.
import { useCallback, useRef, useState } from 'react';
import { useClient } from '../app/context';

export interface TagCache {
  tagsOf(id: number): string[] | undefined;
  want(ids: readonly number[]): void;
  clear(): void;
}

export function useTagCache(): TagCache {
  const client = useClient();
  const known = useRef(new Map<number, string[]>());
  const asked = useRef(new Set<number>());
  const generation = useRef(0);
  const [, setVersion] = useState(0);

  const want = useCallback(
    (ids: readonly number[]) => {
      const missing = ids.filter((id) => !known.current.has(id) && !asked.current.has(id));
      if (missing.length === 0) return;
      const mine = generation.current;
      for (const id of missing) asked.current.add(id);
      client.call('tags.of', { skillIds: missing }).then(
        (found) => {
          if (mine !== generation.current) return;
          for (const id of missing) known.current.set(id, found[id] ?? []);
          setVersion((v) => v + 1);
        },
        () => {
          for (const id of missing) asked.current.delete(id);
        },
      );
    },
    [client],
  );
  const clear = useCallback(() => {
    generation.current++;
    known.current = new Map();
    asked.current = new Set();
    setVersion((v) => v + 1);
  }, []);
  return { tagsOf: (id) => known.current.get(id), want, clear };
}
