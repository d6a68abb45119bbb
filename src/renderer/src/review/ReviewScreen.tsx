// The review queue: unreviewed skills one after another, text and states side by side, keyboard first
// (j next, k back, a verify with Undo, e edit).
import { useEffect, useState } from 'react';
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { navigate } from '../app/router';
import { useApi } from '../app/use-api';
import { SkillScreen } from '../skill/SkillScreen';
import { reviewStatuses } from './review-trail';

/** How many skills wait for review: parsed, failed or edited (an unparsed skill has nothing to verify yet). */
export function useReviewCount(): number | null {
  const stats = useApi('library.stats', {});
  useCuratorEvent((event) => {
    if (event.type === 'states.changed' || event.type === 'library.changed') stats.reload();
  });
  if (!stats.data) return null;
  return reviewStatuses.reduce((sum, s) => sum + (stats.data!.byStatus[s] ?? 0), 0);
}

function QueueStart() {
  const client = useClient();
  const [empty, setEmpty] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    client
      .call('states.next', { statuses: [...reviewStatuses] })
      .then(({ skillId }) =>
        skillId === null ? setEmpty(true) : navigate({ screen: 'review', id: skillId }),
      )
      .catch(setError);
  }, [client]);
  if (error) return <ErrorNote error={error as never} />;
  if (!empty) return <p className="muted">Finding the first skill to review…</p>;
  return (
    <section className="panel" aria-label="Review queue">
      <h2>Nothing left to review</h2>
      <p className="muted">
        Every parsed skill is verified; unparsed skills join the queue once they are parsed.{' '}
        <a href="#/library">Back to the library</a>
      </p>
    </section>
  );
}

export function ReviewScreen({ id }: { id?: number }) {
  const left = useReviewCount();
  if (id === undefined) return <QueueStart />;
  return (
    <div className="review">
      <p className="muted small review-head" data-testid="review-left">
        {left === null ? '' : `${left.toLocaleString()} left to review`} · u undoes the last verify · / search
        · Ctrl+K commands
      </p>
      <SkillScreen key={id} id={id} review />
    </div>
  );
}

/** "Review 412": the way into the queue from the Library. */
export function ReviewButton() {
  const left = useReviewCount();
  if (!left) return null;
  return (
    <a
      className="button"
      href="#/review"
      data-testid="review-button"
      title="Walk the unreviewed skills one by one"
    >
      Review {left.toLocaleString()}
    </a>
  );
}
