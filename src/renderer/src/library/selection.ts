// The skills ticked in the Library list: a click toggles one, a shift-click ticks the range from the last click.
import { useCallback, useRef, useState } from 'react';

export interface Selection {
  ids: ReadonlySet<number>;
  toggle(index: number, id: number, range: boolean, idAt: (index: number) => number | undefined): void;
  set(ids: Iterable<number>): void;
  clear(): void;
}

export function useSelection(): Selection {
  const [ids, setIds] = useState<ReadonlySet<number>>(new Set());
  const anchor = useRef<{ index: number; on: boolean } | null>(null);
  const toggle = useCallback<Selection['toggle']>((index, id, range, idAt) => {
    setIds((current) => {
      const next = new Set(current);
      if (range && anchor.current) {
        // The range takes the state the anchor row was given.
        const on = anchor.current.on;
        const [from, to] = [Math.min(anchor.current.index, index), Math.max(anchor.current.index, index)];
        for (let i = from; i <= to; i++) {
          const rowId = idAt(i);
          if (rowId === undefined) continue;
          if (on) next.add(rowId);
          else next.delete(rowId);
        }
        return next;
      }
      const on = !next.has(id);
      if (on) next.add(id);
      else next.delete(id);
      anchor.current = { index, on };
      return next;
    });
  }, []);
  const set = useCallback((list: Iterable<number>) => setIds(new Set(list)), []);
  const clear = useCallback(() => {
    anchor.current = null;
    setIds(new Set());
  }, []);
  return { ids, toggle, set, clear };
}
