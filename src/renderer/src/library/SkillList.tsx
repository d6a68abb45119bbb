// The virtualised skill list: only the visible rows are in the DOM, whether there are 40 or 70,000.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { SkillSummary } from '../../../shared/api';
import { navigate } from '../app/router';
import { Snippet, StatusBadge } from './bits';

const rowHeight = 58;

export interface SkillListProps {
  count: number;
  rowAt(index: number): { skill: SkillSummary; snippet?: string; score?: number } | undefined;
  ensureRange?(start: number, end: number): void;
  sourceLabel(id: number): string;
}

export function SkillList({ count, rowAt, ensureRange, sourceLabel }: SkillListProps) {
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => parent.current,
    estimateSize: () => rowHeight,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (count > 0) ensureRange?.(first, last);
  }, [first, last, count, ensureRange]);

  return (
    <div ref={parent} className="skill-list" role="list" aria-label="Skills" data-count={count}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = rowAt(item.index);
          return (
            <div
              key={item.key}
              role="listitem"
              className="skill-row"
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: rowHeight,
                transform: `translateY(${item.start}px)`,
              }}
            >
              {row ? (
                <button
                  className="row-button"
                  data-skill-id={row.skill.id}
                  data-skill-name={row.skill.name}
                  onClick={() => navigate({ screen: 'skill', id: row.skill.id })}
                >
                  <span className="row-title">
                    <strong>{row.skill.name}</strong>
                    <StatusBadge status={row.skill.status} />
                    {row.skill.warningCount > 0 && (
                      <span className="badge warn" title="Validation warnings">
                        {row.skill.warningCount} warning{row.skill.warningCount > 1 ? 's' : ''}
                      </span>
                    )}
                    <span className="muted small" title="source · path">
                      {sourceLabel(row.skill.sourceId)}
                      {row.skill.relPath ? ` · ${row.skill.relPath}` : ''}
                    </span>
                    {row.score !== undefined && (
                      <span className="muted small score">score {row.score.toFixed(3)}</span>
                    )}
                  </span>
                  <span className="row-sub">
                    {row.snippet ? <Snippet text={row.snippet} /> : row.skill.description}
                  </span>
                </button>
              ) : (
                <span className="muted row-loading">Loading…</span>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
