// Before a run: how many skills of the library have no states. METHOD.md gives such a skill precondition None and its
// description as completion, so its edge can span the whole task and cut no stage: with many of them, full answers
// fewer, broader skills, and the figures say so without saying why.
import { useCuratorEvent } from '../app/context';
import { useApi } from '../app/use-api';

export function UnparsedNote() {
  const stats = useApi('library.stats', {});
  const { reload } = stats;
  useCuratorEvent((event) => {
    if (event.type === 'library.changed' || event.type === 'states.changed') reload();
  });
  const unparsed = (stats.data?.byStatus.unparsed ?? 0) + (stats.data?.byStatus.failed ?? 0);
  if (!stats.data || unparsed === 0) return null;
  const one = unparsed === 1;
  return (
    <p className="muted small" data-testid="unparsed-note">
      {unparsed} of the library’s {stats.data.skills} skills {one ? 'has' : 'have'} no states: the graph
      variants take {one ? 'it' : 'them'} with precondition None and the description as completion, so{' '}
      {one ? 'it' : 'they'} can span a whole task and cut no stage. Parse {one ? 'it' : 'them'} (
      <a href="#/library">Library</a> → Parse unparsed) or apply reviewed states to judge full on what the
      skills do.
    </p>
  );
}
