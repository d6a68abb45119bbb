// One skill: the SKILL.md text beside its parsed states, front matter, files, warnings; j/k/a/e move through review.
// In the review queue (#/review/ID) the same page walks the unreviewed skills: a verifies with an Undo toast and
// moves on, and the trail of visited skills survives a reload.
import { useEffect, useRef } from 'react';
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { isTyping } from '../app/keys';
import { navigate } from '../app/router';
import { showToast } from '../app/toasts';
import { useApi } from '../app/use-api';
import { SkillAuditPanel } from '../audit/SkillAuditPanel';
import { StatusBadge } from '../library/bits';
import { DeleteSkillButton } from '../library/DeleteSkillButton';
import { SkillChangedNote } from '../library/SkillChangedNote';
import { TagEditor } from '../library/TagEditor';
import { SkillMarkdown } from '../markdown/SkillMarkdown';
import { reviewStatuses, stepBack, undoVerify, visit } from '../review/review-trail';
import { StatesPanel, type StatesPanelHandle } from './StatesPanel';

function formatBytes(n: number): string {
  return n < 1024
    ? `${n} B`
    : n < 1024 * 1024
      ? `${(n / 1024).toFixed(1)} KB`
      : `${(n / 1048576).toFixed(1)} MB`;
}

export function SkillScreen({
  id,
  review = false,
  findingId,
}: {
  id: number;
  review?: boolean;
  findingId?: number;
}) {
  const client = useClient();
  const skill = useApi('library.get', { id });
  const states = useRef<StatesPanelHandle>(null);
  useCuratorEvent((event) => {
    if (event.type === 'states.changed' && event.skillIds.includes(id)) skill.reload();
  });

  useEffect(() => visit(id), [id]);

  useEffect(() => {
    const go = (skillId: number) =>
      navigate(review ? { screen: 'review', id: skillId } : { screen: 'skill', id: skillId });
    const next = async () => {
      // The review queue walks the skills that have states to verify; the plain skill screen walks unparsed ones too.
      const statuses = review ? [...reviewStatuses] : [...reviewStatuses, 'unparsed' as const];
      const { skillId } = await client.call('states.next', { afterId: id, statuses });
      if (skillId !== null) go(skillId);
      else if (review) navigate({ screen: 'review' });
    };
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'j') void next().catch(() => undefined);
      else if (e.key === 'k') {
        const previous = stepBack(id);
        if (previous !== undefined) go(previous);
      } else if (e.key === 'a') {
        void states.current?.verify().then(async (ok) => {
          if (!ok) return;
          const name = skill.data?.name ?? `skill ${id}`;
          showToast(`Verified ${name}`, async () => {
            await undoVerify(client, id);
            showToast(`${name} is back to its earlier state`);
          });
          await next().catch(() => undefined);
        });
      } else if (e.key === 'e') {
        e.preventDefault();
        states.current?.edit();
      } else return;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [client, id, review, skill.data?.name]);

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
        {review && <span className="badge">Review queue</span>}
        <h1 data-testid="skill-name">{s.name}</h1>
        <StatusBadge status={s.status} />
        <span className="muted small">
          {s.sourceLabel}
          {s.relPath ? ` · ${s.relPath}` : ''}
        </span>
        <span className="spacer" />
        <span className="muted small keys">j next · k previous · a verify · e edit</span>
        <DeleteSkillButton skillId={s.id} />
      </div>
      <TagEditor skillId={s.id} />
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
          <SkillAuditPanel skillId={s.id} findingId={findingId} />
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
