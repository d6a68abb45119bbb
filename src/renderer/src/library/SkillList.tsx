// The virtualised skill list: only the visible rows are in the DOM, whether there are 40 or 70,000. Each row has a
// checkbox for bulk actions (shift-click ticks a range) and its tags; arrow keys move between rows, Enter opens.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import type { SkillSummary } from '../../../shared/api';
import { navigate } from '../app/router';
import { AuditWorstBadge } from '../audit/SeverityBadge';
import { Snippet, StatusBadge } from './bits';
import './bulk.css';

const rowHeight = 58;

export interface SkillListProps {
  count: number;
  rowAt(index: number): { skill: SkillSummary; snippet?: string; score?: number } | undefined;
  ensureRange?(start: number, end: number): void;
  sourceLabel(id: number): string;
  selected?: ReadonlySet<number>;
  onToggle?(index: number, id: number, range: boolean): void;
  tagsOf?(id: number): string[] | undefined;
  onRowsShown?(ids: number[]): void;
  onTagClick?(tag: string): void;
}

export function SkillList({
  count,
  rowAt,
  ensureRange,
  sourceLabel,
  selected,
  onToggle,
  tagsOf,
  onRowsShown,
  onTagClick,
}: SkillListProps) {
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
  const shownIds = items.map((item) => rowAt(item.index)?.skill.id).filter((id) => id !== undefined);
  const shownKey = shownIds.join(',');
  useEffect(() => {
    if (shownKey) onRowsShown?.(shownKey.split(',').map(Number));
  }, [shownKey, onRowsShown]);

  // A row out of view is not in the DOM: scroll it in, then focus it once it (and its page) has rendered.
  const focusRow = useCallback(
    (index: number) => {
      const target = Math.max(0, Math.min(count - 1, index));
      virtualizer.scrollToIndex(target, { align: 'auto' });
      let tries = 120;
      const attempt = () => {
        const button = parent.current?.querySelector<HTMLButtonElement>(
          `[data-index="${target}"] .row-button`,
        );
        if (button) button.focus();
        else if (tries-- > 0) requestAnimationFrame(attempt);
      };
      attempt();
    },
    [count, virtualizer],
  );
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const row = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
    if (!row) return;
    const index = Number(row.dataset.index);
    const step: Record<string, number> = {
      ArrowDown: 1,
      ArrowUp: -1,
      PageDown: 10,
      PageUp: -10,
      Home: -count,
      End: count,
    };
    if (e.key in step && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      e.stopPropagation();
      focusRow(index + step[e.key]!);
    } else if (e.key === 'x' && onToggle) {
      const id = rowAt(index)?.skill.id;
      if (id !== undefined) {
        e.preventDefault();
        e.stopPropagation();
        onToggle(index, id, e.shiftKey);
      }
    }
  };

  return (
    <div
      ref={parent}
      className="skill-list"
      role="list"
      aria-label="Skills"
      data-count={count}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = rowAt(item.index);
          const ticked = row ? (selected?.has(row.skill.id) ?? false) : false;
          const tags = row ? tagsOf?.(row.skill.id) : undefined;
          return (
            <div
              key={item.key}
              role="listitem"
              className={`skill-row${ticked ? ' ticked' : ''}`}
              data-index={item.index}
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
                <>
                  {onToggle && (
                    <input
                      type="checkbox"
                      className="row-check"
                      aria-label={`Select ${row.skill.name}`}
                      checked={ticked}
                      tabIndex={-1}
                      onChange={() => undefined}
                      onClick={(e) => onToggle(item.index, row.skill.id, e.shiftKey)}
                    />
                  )}
                  <button
                    className="row-button"
                    data-skill-id={row.skill.id}
                    data-skill-name={row.skill.name}
                    onClick={() => navigate({ screen: 'skill', id: row.skill.id })}
                  >
                    <span className="row-title">
                      <strong>{row.skill.name}</strong>
                      <StatusBadge status={row.skill.status} />
                      <AuditWorstBadge worst={row.skill.auditWorst} auditedAt={row.skill.auditedAt} />
                      {row.skill.warningCount > 0 && (
                        <span className="badge warn" title="Validation warnings">
                          {row.skill.warningCount} warning{row.skill.warningCount > 1 ? 's' : ''}
                        </span>
                      )}
                      {tags?.map((tag) => (
                        <span
                          key={tag}
                          className="tag"
                          title={`Show only skills tagged ${tag}`}
                          onClick={(e) => {
                            if (!onTagClick) return;
                            e.stopPropagation();
                            onTagClick(tag);
                          }}
                        >
                          {tag}
                        </span>
                      ))}
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
                </>
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
