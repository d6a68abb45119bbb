// Ctrl/Cmd+K: one box to reach any screen, any skill (by name, prefix first) and the common actions; arrows move,
// Enter runs, Escape closes. `/` focuses the page's search box (the Library's when the page has none).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useClient } from './context';
import { isTyping } from './keys';
import { navigate, type Route } from './router';
import { showToast } from './toasts';

interface Command {
  id: string;
  label: string;
  hint: string;
  run: () => void | Promise<void>;
}

const screens: [Route, string][] = [
  [{ screen: 'library' }, 'Library'],
  [{ screen: 'review' }, 'Review queue'],
  [{ screen: 'jobs' }, 'Jobs'],
  [{ screen: 'select' }, 'Selection lab'],
  [{ screen: 'evaluation' }, 'Evaluation'],
  [{ screen: 'profiles' }, 'Profiles'],
  [{ screen: 'usage' }, 'Usage'],
  [{ screen: 'audit' }, 'Audit'],
  [{ screen: 'settings' }, 'Settings'],
];

/** Words of the query each found at the start of a word of the label: "sel lab" finds "Selection lab". */
function matches(label: string, query: string): boolean {
  const words = label.toLowerCase().split(/[\s\-_/]+/);
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((q) => words.some((w) => w.startsWith(q)) || label.toLowerCase().includes(q));
}

function focusSearch(): void {
  const box = document.querySelector<HTMLInputElement>('input[aria-label="Search"]');
  if (box) return box.focus();
  navigate({ screen: 'library' });
  window.setTimeout(
    () => document.querySelector<HTMLInputElement>('input[aria-label="Search"]')?.focus(),
    100,
  );
}

export function CommandPalette() {
  const client = useClient();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [at, setAt] = useState(0);
  const [skills, setSkills] = useState<Command[]>([]);
  const box = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setOpen((v) => !v);
        setQuery('');
        setAt(0);
      } else if (e.key === 'Escape') {
        // Wherever the focus went, Escape closes the palette (a no-op when it is closed).
        setOpen(false);
      } else if (e.key === '/' && !isTyping(e.target) && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        focusSearch();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    if (open) box.current?.focus();
  }, [open]);

  const actions = useMemo<Command[]>(() => {
    const start = (label: string, call: () => Promise<unknown>) => async () => {
      await call();
      showToast(`${label}: started (see Jobs)`);
    };
    return [
      ...screens.map(([route, label]) => ({
        id: `screen:${label}`,
        label,
        hint: 'screen',
        run: () => navigate(route),
      })),
      {
        id: 'action:parse',
        label: 'Parse unparsed skills',
        hint: 'action',
        run: start('Parse unparsed skills', () => client.call('parse.skills', { only: 'unparsed' })),
      },
      {
        id: 'action:retry',
        label: 'Retry failed parses',
        hint: 'action',
        run: start('Retry failed parses', () => client.call('parse.skills', { only: 'failed' })),
      },
      {
        id: 'action:index',
        label: 'Build the vector index',
        hint: 'action',
        run: start('Build the vector index', () => client.call('index.build', {})),
      },
      { id: 'action:search', label: 'Search the library', hint: 'action · /', run: focusSearch },
    ];
  }, [client]);

  // Skills by name: the keyword search's prefix matching, exact names first.
  useEffect(() => {
    const q = query.trim();
    if (!open || q.length < 2) return setSkills([]);
    let live = true;
    const timer = window.setTimeout(() => {
      client
        .call('library.search', { query: q, mode: 'keyword', limit: 8 })
        .then((answer) => {
          if (!live) return;
          const hits = [...answer.hits].sort(
            (a, b) => Number(b.skill.name.startsWith(q)) - Number(a.skill.name.startsWith(q)),
          );
          setSkills(
            hits.map((h) => ({
              id: `skill:${h.skill.id}`,
              label: h.skill.name,
              hint: 'skill',
              run: () => navigate({ screen: 'skill', id: h.skill.id }),
            })),
          );
        })
        .catch(() => live && setSkills([]));
    }, 120);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [client, open, query]);

  if (!open) return null;
  const shown = [...actions.filter((c) => matches(c.label, query)), ...skills].slice(0, 14);
  const chosen = Math.min(at, Math.max(shown.length - 1, 0));
  const runAt = (i: number) => {
    const command = shown[i];
    if (!command) return;
    setOpen(false);
    void Promise.resolve(command.run()).catch((error: unknown) =>
      showToast(`${command.label} failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  return (
    <div className="palette-backdrop" onMouseDown={() => setOpen(false)}>
      <div
        className="palette"
        role="dialog"
        aria-modal="true"
        aria-label="Command palette"
        onMouseDown={(e) => e.stopPropagation()}
      >
        <input
          ref={box}
          aria-label="Command"
          placeholder="Go to a screen, a skill or an action…"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setAt(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setAt(Math.min(chosen + 1, shown.length - 1));
            else if (e.key === 'ArrowUp') setAt(Math.max(chosen - 1, 0));
            else if (e.key === 'Enter') runAt(chosen);
            else if (e.key === 'Escape') setOpen(false);
            // The box is the dialog's only stop: Tab must not walk into the page behind the backdrop.
            else if (e.key !== 'Tab') return;
            e.preventDefault();
          }}
        />
        <ul role="listbox" aria-label="Commands">
          {shown.map((c, i) => (
            <li
              key={c.id}
              role="option"
              aria-selected={i === chosen}
              className={i === chosen ? 'active' : ''}
              onMouseEnter={() => setAt(i)}
              onClick={() => runAt(i)}
            >
              <span>{c.label}</span>
              <span className="muted small">{c.hint}</span>
            </li>
          ))}
          {shown.length === 0 && <li className="muted">Nothing matches “{query}”.</li>}
        </ul>
      </div>
    </div>
  );
}
