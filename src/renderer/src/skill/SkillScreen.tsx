// One skill: the SKILL.md text beside its parsed states, front matter, files, warnings; j/k/a/e move through review.
import { useEffect, useRef } from 'react';
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { navigate } from '../app/router';
import { useApi } from '../app/use-api';
import { StatusBadge } from '../library/bits';
import { DeleteSkillButton } from '../library/DeleteSkillButton';
import { SkillChangedNote } from '../library/SkillChangedNote';
import { SkillMarkdown } from '../markdown/SkillMarkdown';
import { StatesPanel, type StatesPanelHandle } from './StatesPanel';

/** Skills visited in this review session, so k can go back along the queue. */
const visited: number[] = [];

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

function formatBytes(n: number): string {
  return n < 1024
    ? `${n} B`
    : n < 1024 * 1024
      ? `${(n / 1024).toFixed(1)} KB`
      : `${(n / 1048576).toFixed(1)} MB`;
}

export function SkillScreen({ id }: { id: number }) {
  const client = useClient();
  const skill = useApi('library.get', { id });
  const states = useRef<StatesPanelHandle>(null);
  useCuratorEvent((event) => {
    if (event.type === 'states.changed' && event.skillIds.includes(id)) skill.reload();
  });

  useEffect(() => {
    if (visited[visited.length - 1] !== id) visited.push(id);
  }, [id]);

  useEffect(() => {
    const next = async () => {
      const { skillId } = await client.call('states.next', {
        afterId: id,
        statuses: ['parsed', 'failed', 'edited', 'unparsed'],
      });
      if (skillId !== null) navigate({ screen: 'skill', id: skillId });
    };
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'j') void next().catch(() => undefined);
      else if (e.key === 'k') {
        const at = visited.lastIndexOf(id);
        const previous = at > 0 ? visited[at - 1] : undefined;
        if (previous !== undefined) {
          visited.splice(at, 1);
          navigate({ screen: 'skill', id: previous });
        }
      } else if (e.key === 'a') {
        void states.current?.verify().then(async (ok) => {
          if (ok) await next().catch(() => undefined);
        });
      } else if (e.key === 'e') {
        e.preventDefault();
        states.current?.edit();
      } else return;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [client, id]);

  if (skill.error) {
    return (
      <div>
        <a href="#/library">← Library</a>
        <ErrorNote error={skill.error} />
      </div>
    );
  }
  const s = skill.data;
  if (!s) return <p className="muted">Loading skill…</p>;
  const frontMatter = Object.entries(s.frontMatter);
  return (
    <div className="skill-screen">
      <div className="row wrap skill-head">
        <a href="#/library">← Library</a>
        <h1 data-testid="skill-name">{s.name}</h1>
        <StatusBadge status={s.status} />
        <span className="muted small">
          {s.sourceLabel} · {s.relPath}
        </span>
        <span className="spacer" />
        <span className="muted small keys">j next · k previous · a accept · e edit</span>
        <DeleteSkillButton skillId={s.id} />
      </div>
      <SkillChangedNote skillId={s.id} />
      <p className="description">{s.description}</p>
      <div className="two-columns">
        <div className="column">
          {s.warnings.length > 0 && (
            <section className="panel warn" aria-label="Warnings">
              <h2>Warnings</h2>
              <ul>
                {s.warnings.map((w, i) => (
                  <li key={i}>
                    {w.message}{' '}
                    <span className="muted small">
                      ({w.rule}, {w.file}
                      {w.line ? `:${w.line}` : ''})
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <section className="panel" aria-label="SKILL.md">
            <SkillMarkdown markdown={s.body} />
          </section>
        </div>
        <div className="column side">
          <StatesPanel ref={states} skillId={s.id} />
          <section className="panel" aria-label="Front matter">
            <h2>Front matter</h2>
            <table className="table kv">
              <tbody>
                {frontMatter.map(([key, value]) => (
                  <tr key={key}>
                    <th>{key}</th>
                    <td>{typeof value === 'string' ? value : JSON.stringify(value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section className="panel" aria-label="Files">
            <h2>Files</h2>
            {s.files.length === 0 ? (
              <p className="muted small">Only SKILL.md.</p>
            ) : (
              <table className="table">
                <tbody>
                  {s.files.map((f) => (
                    <tr key={f.path}>
                      <td>{f.path}</td>
                      <td className="muted">{f.kind}</td>
                      <td className="num">{formatBytes(f.size)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}
