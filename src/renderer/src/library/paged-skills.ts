// Fetches the library list page by page as the virtual list scrolls, so 70,000 rows cost only what is on screen.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SkillFilters, SkillSummary } from '../../../shared/api';
import type { ApiErrorData } from '../../../shared/errors';
import { asErrorData, type CuratorClient } from '../client/client';
import { useClient } from '../app/context';

const pageSize = 200;

export interface PagedSkills {
  total: number | null;
  rowAt(index: number): SkillSummary | undefined;
  ensureRange(start: number, end: number): void;
  error: ApiErrorData | null;
  reload(): void;
}

export function usePagedSkills(filters: SkillFilters, enabled: boolean): PagedSkills {
  const client = useClient();
  const key = JSON.stringify(filters);
  const pages = useRef(new Map<number, SkillSummary[]>());
  const pending = useRef(new Set<number>());
  const generation = useRef(0);
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<ApiErrorData | null>(null);
  const [, setVersion] = useState(0);

  const loadPage = useCallback(
    (page: number) => {
      if (pages.current.has(page) || pending.current.has(page)) return;
      const mine = generation.current;
      pending.current.add(page);
      client
        .call('library.list', {
          ...(JSON.parse(key) as SkillFilters),
          limit: pageSize,
          offset: page * pageSize,
        })
        .then(
          (answer) => {
            if (mine !== generation.current) return;
            pages.current.set(page, answer.items);
            setTotal(answer.total);
            setError(null);
            setVersion((v) => v + 1);
          },
          (e: unknown) => mine === generation.current && setError(asErrorData(e)),
        )
        .finally(() => pending.current.delete(page));
    },
    [client, key],
  );

  const reload = useCallback(() => {
    generation.current++;
    pages.current = new Map();
    pending.current = new Set();
    setVersion((v) => v + 1);
    loadPage(0);
  }, [loadPage]);

  useEffect(() => {
    if (!enabled) return;
    setTotal(null);
    reload();
  }, [enabled, reload]);

  return {
    total,
    error,
    reload,
    rowAt: (index) => pages.current.get(Math.floor(index / pageSize))?.[index % pageSize],
    ensureRange: (start, end) => {
      for (let p = Math.floor(start / pageSize); p <= Math.floor(end / pageSize); p++) loadPage(p);
    },
  };
}

/** The ids of every skill the filters match, page by page (for "Select all shown"). */
export async function allSkillIds(client: CuratorClient, filters: SkillFilters): Promise<number[]> {
  const ids: number[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await client.call('library.list', { ...filters, limit: 500, offset });
    ids.push(...page.items.map((s) => s.id));
    if (page.items.length < 500 || ids.length >= page.total) return ids;
  }
}
