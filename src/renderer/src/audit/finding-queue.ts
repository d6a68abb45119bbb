// The review queue of audit findings, worst first across the library: for each severity from critical down, the
// unsuppressed findings of that severity in the skills audit.list returns for it (worst skill first), fetched a
// page of skills at a time as the queue reaches them.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Severity, StoredFinding } from '../../../shared/api/audit';
import type { CuratorClient } from '../client/client';

export interface QueuedFinding extends StoredFinding {
  skillName: string;
}

const levels: Severity[] = ['critical', 'high', 'medium', 'low'];
const skillsPerPage = 20;

interface Cursor {
  level: number;
  offset: number;
  done: boolean;
}

async function nextPage(
  client: CuratorClient,
  at: Cursor,
): Promise<{ found: QueuedFinding[]; next: Cursor }> {
  const level = levels[at.level]!;
  const list = await client.call('audit.list', {
    minSeverity: level,
    limit: skillsPerPage,
    offset: at.offset,
  });
  const found: QueuedFinding[] = [];
  for (const s of list.items) {
    if (s.counts[level] === 0) continue;
    const audit = await client.call('audit.skill', { skillId: s.skillId });
    for (const f of audit.findings)
      if (f.suppressed === null && f.severity === level) found.push({ ...f, skillName: audit.name });
  }
  const offset = at.offset + list.items.length;
  const next =
    offset < list.total
      ? { ...at, offset }
      : { level: at.level + 1, offset: 0, done: at.level + 1 >= levels.length };
  return { found, next };
}

export function useFindingQueue(client: CuratorClient) {
  const [items, setItems] = useState<QueuedFinding[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  // A restart while a page loads: that page belongs to the old queue and is dropped.
  const generation = useRef(0);
  const cursor = useRef<Cursor>({ level: 0, offset: 0, done: false });
  const busy = useRef(false);

  /** Loads pages until some findings came or the queue is done. */
  const more = useCallback(async () => {
    if (busy.current || cursor.current.done) return;
    busy.current = true;
    setLoading(true);
    try {
      const mine = generation.current;
      for (;;) {
        const { found, next } = await nextPage(client, cursor.current);
        if (mine !== generation.current) return;
        cursor.current = next;
        if (found.length > 0) setItems((prev) => [...prev, ...found]);
        if (found.length > 0 || next.done) break;
      }
    } catch (e) {
      setError(e);
    } finally {
      busy.current = false;
      setLoading(false);
    }
  }, [client, version]);

  useEffect(() => {
    void more();
  }, [more]);

  /** Starts over (after an audit run: the findings are new). */
  const restart = useCallback(() => {
    generation.current++;
    cursor.current = { level: 0, offset: 0, done: false };
    busy.current = false;
    setItems([]);
    setError(null);
    setVersion((v) => v + 1);
  }, []);

  /** Takes out the findings a suppression now holds for. */
  const drop = useCallback((held: (f: QueuedFinding) => boolean) => {
    setItems((prev) => prev.filter((f) => !held(f)));
  }, []);

  return { items, loading, error, done: cursor.current.done, more, restart, drop };
}
