// Library: search as you type (keyword, dense, hybrid), filters (tags too), the virtualised list with bulk actions on
// a selection, parsing the unparsed, import and conflicts.
import { ReviewButton } from '../review/ReviewScreen';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ReviewStatus, SearchMode, SkillFilters } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { AuditFilterSelect, auditFilters, type AuditFilter } from '../audit/AuditFilterSelect';
import { useClient, useCuratorEvent } from '../app/context';
import { useApi } from '../app/use-api';
import { BulkBar } from './BulkBar';
import { ConflictsPanel } from './ConflictsPanel';
import { EmptyLibrary } from './EmptyLibrary';
import { ApplyStatesPanel } from './ApplyStatesPanel';
import { ImportPanel } from './ImportPanel';
import { ParseUnparsedButton } from './ParseUnparsed';
import { useSelection } from './selection';
import { SkillList } from './SkillList';
import { SearchEngineNote } from './SearchEngineNote';
import { SourcesPanel } from './SourcesPanel';
import { TrashPanel } from './TrashPanel';
import { UndoBar } from './UndoBar';
import { useWindowDrop } from './window-drop';
import { allSkillIds, usePagedSkills } from './paged-skills';
import { useTagCache } from './tag-cache';

const statuses: ReviewStatus[] = ['unparsed', 'parsed', 'failed', 'edited', 'verified'];
/** Hits a search asks for; as many hits back means there may be more, and the summary says so. */
const searchLimit = 200;

function matchesWords(n: number): string {
  if (n >= searchLimit) return `${searchLimit}+ matches (the first ${searchLimit} shown)`;
  return `${n} match${n === 1 ? '' : 'es'}`;
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function LibraryScreen() {
  const [query, setQuery] = useState(() => sessionStorage.getItem('library.query') ?? '');
  const [mode, setMode] = useState<SearchMode>('keyword');
  const [sourceId, setSourceId] = useState<number | undefined>();
  const [status, setStatus] = useState<ReviewStatus | undefined>();
  const [problems, setProblems] = useState<'' | 'warnings' | 'errors'>('');
  const [tag, setTag] = useState(() => sessionStorage.getItem('library.tag') || undefined);
  const [audit, setAudit] = useState<AuditFilter>('');
  useEffect(() => sessionStorage.setItem('library.tag', tag ?? ''), [tag]);
  const [showImport, setShowImport] = useState(false);
  const [showSources, setShowSources] = useState(() => sessionStorage.getItem('library.sources') === '1');
  useEffect(() => sessionStorage.setItem('library.sources', showSources ? '1' : '0'), [showSources]);
  const drop = useWindowDrop();
  useEffect(() => {
    if (drop.dropped) setShowImport(true);
  }, [drop.dropped]);
  const [version, setVersion] = useState(0);
  const settledQuery = useDebounced(query.trim(), 150);
  useEffect(() => sessionStorage.setItem('library.query', query), [query]);

  const filters: SkillFilters = useMemo(
    () => ({
      sourceId,
      status,
      hasWarnings: problems === 'warnings' ? true : undefined,
      hasErrors: problems === 'errors' ? true : undefined,
      tag,
      ...auditFilters(audit),
    }),
    [sourceId, status, problems, tag, audit],
  );
  const stats = useApi('library.stats', {});
  const sources = useApi('library.sources', {});
  const tags = useApi('tags.list', {});
  const client = useClient();
  const selection = useSelection();
  const rowTags = useTagCache();
  const paged = usePagedSkills(filters, settledQuery === '');
  const search = useApi(
    'library.search',
    settledQuery ? { query: settledQuery, mode, filters, limit: searchLimit } : null,
  );

  const refresh = useCallback(() => {
    stats.reload();
    sources.reload();
    tags.reload();
    rowTags.clear();
    paged.reload();
    search.reload();
    setVersion((v) => v + 1);
  }, [stats.reload, sources.reload, tags.reload, rowTags.clear, paged.reload, search.reload]);
  useCuratorEvent((event) => {
    if (event.type === 'library.changed' || event.type === 'states.changed') refresh();
  });

  const sourceLabel = useCallback(
    (id: number) => sources.data?.find((s) => s.id === id)?.label ?? '',
    [sources.data],
  );
  const hits = search.data?.hits ?? [];
  const searching = settledQuery !== '';
  const count = searching ? hits.length : (paged.total ?? 0);
  const filtered =
    sourceId !== undefined || status !== undefined || problems !== '' || tag !== undefined || audit !== '';
  // Empty means the library holds nothing; a filter that matches nothing is said as such.
  const empty = !searching && paged.total === 0 && !paged.error && !filtered;
  const noMatch = !searching && paged.total === 0 && !paged.error && filtered;
  const clearFilters = () => {
    setSourceId(undefined);
    setStatus(undefined);
    setProblems('');
    setTag(undefined);
    setAudit('');
  };
  // A new filter or query is a new list: what was ticked in the old one is let go.
  const listKey = JSON.stringify([filters, settledQuery, mode]);
  const { clear: clearSelection } = selection;
  useEffect(() => clearSelection(), [listKey, clearSelection]);
  const idAt = (i: number) => (searching ? hits[i]?.skill.id : paged.rowAt(i)?.id);
  const selectAll = async () => {
    selection.set(searching ? hits.map((h) => h.skill.id) : await allSkillIds(client, filters));
  };
  // An import started from the empty library keeps its panel (progress, report) once the library fills.
  useEffect(() => {
    if (empty) setShowImport(true);
  }, [empty]);

  return (
    <div className="library">
      <div className="toolbar row wrap">
        <input
          type="search"
          className="grow search"
          placeholder="Search skills by name, description and text…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            // Down from the search field goes into the list; arrow keys move on from there.
            if (e.key !== 'ArrowDown') return;
            const first = document.querySelector<HTMLElement>('.skill-list .row-button');
            if (first) {
              e.preventDefault();
              first.focus();
            }
          }}
          aria-label="Search"
          autoFocus
        />
        <select value={mode} onChange={(e) => setMode(e.target.value as SearchMode)} aria-label="Search mode">
          <option value="keyword">Keyword</option>
          <option value="dense">Dense</option>
          <option value="hybrid">Hybrid</option>
        </select>
        <select
          value={sourceId ?? ''}
          onChange={(e) => setSourceId(e.target.value ? Number(e.target.value) : undefined)}
          aria-label="Source"
        >
          <option value="">All sources</option>
          {(sources.data ?? []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.label} ({s.skillCount})
            </option>
          ))}
        </select>
        <select
          value={status ?? ''}
          onChange={(e) => setStatus((e.target.value || undefined) as ReviewStatus | undefined)}
          aria-label="Review status"
        >
          <option value="">Any status</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <select
          value={problems}
          onChange={(e) => setProblems(e.target.value as typeof problems)}
          aria-label="Problems"
        >
          <option value="">Any validation</option>
          <option value="warnings">With warnings</option>
          <option value="errors">With parse errors</option>
        </select>
        <select value={tag ?? ''} onChange={(e) => setTag(e.target.value || undefined)} aria-label="Tag">
          <option value="">Any tag</option>
          {tag !== undefined && !(tags.data ?? []).some((t) => t.tag === tag) && (
            <option value={tag}>{tag}</option>
          )}
          {(tags.data ?? []).map((t) => (
            <option key={t.tag} value={t.tag}>
              {t.tag} ({t.skills})
            </option>
          ))}
        </select>
        <AuditFilterSelect value={audit} onChange={setAudit} />
        <ReviewButton />
        <ParseUnparsedButton unparsed={stats.data?.byStatus.unparsed ?? 0} />
        <button className={showImport ? 'primary' : ''} onClick={() => setShowImport((v) => !v)}>
          Import…
        </button>
        <button className={showSources ? 'primary' : ''} onClick={() => setShowSources((v) => !v)}>
          Sources…
        </button>
      </div>
      <div className="stats-line muted small" aria-live="polite">
        {stats.data && (
          <span data-testid="library-stats">
            {stats.data.skills} skills in {stats.data.sources} source{stats.data.sources === 1 ? '' : 's'} ·{' '}
            {statuses.map((s) => `${stats.data!.byStatus[s] ?? 0} ${s}`).join(' · ')}
            {stats.data.openConflicts > 0 &&
              ` · ${stats.data.openConflicts} open conflict${stats.data.openConflicts === 1 ? '' : 's'}`}
          </span>
        )}
        {searching && search.data && (
          <span data-testid="search-summary">
            {' '}
            — {matchesWords(hits.length)} ({search.data.mode}, {search.data.engine})
          </span>
        )}
        {search.loading && <span> — searching…</span>}
      </div>
      {searching && search.data && <SearchEngineNote response={search.data} />}
      <ErrorNote error={(searching ? search.error : paged.error) ?? stats.error} />
      {drop.overlay}
      {(showImport || paged.error) && <ImportPanel onImported={refresh} dropped={drop.dropped} />}
      {showImport && !empty && <ApplyStatesPanel onApplied={refresh} />}
      {showSources && !paged.error && <SourcesPanel onChanged={refresh} />}
      {showSources && !paged.error && <TrashPanel onChanged={refresh} />}
      <UndoBar onUndone={refresh} version={version} />
      {!paged.error && <ConflictsPanel version={version} />}
      {paged.error && !searching ? null : empty ? (
        <EmptyLibrary />
      ) : noMatch ? (
        <div className="empty-state" data-testid="no-match">
          <p>
            No skills match these filters —{' '}
            <button className="link" onClick={clearFilters}>
              Clear filters
            </button>
          </p>
        </div>
      ) : searching && search.data && hits.length === 0 ? (
        <div className="empty-state">
          <p>No skill matches “{settledQuery}”. Try fewer words, another mode, or clear the filters.</p>
        </div>
      ) : (
        <>
          {count > 0 && (
            <BulkBar
              selected={selection.ids}
              shown={count}
              onSelectAll={() => void selectAll()}
              onClear={selection.clear}
              onDone={(action) => {
                if (action === 'delete') selection.clear();
                refresh();
              }}
            />
          )}
          <SkillList
            count={count}
            rowAt={(i) => (searching ? hits[i] : ((s) => (s ? { skill: s } : undefined))(paged.rowAt(i)))}
            ensureRange={searching ? undefined : paged.ensureRange}
            sourceLabel={sourceLabel}
            selected={selection.ids}
            onToggle={(index, id, range) => selection.toggle(index, id, range, idAt)}
            tagsOf={rowTags.tagsOf}
            onRowsShown={rowTags.want}
            onTagClick={setTag}
          />
        </>
      )}
    </div>
  );
}
