// Under the chosen label set: its gold skills the library lacks, which every variant scores as misses (a set
// written for another library, or a gold skill deleted), with a way to restore those still in the trash.
import { missingGoldWords } from '../../../shared/gold-coverage-words';
import { useCuratorEvent } from '../app/context';
import { useApi } from '../app/use-api';

export function GoldCoverageNote({ setId }: { setId: number }) {
  const coverage = useApi('labels.coverage', { id: setId });
  const { reload } = coverage;
  useCuratorEvent((event) => {
    if (event.type === 'library.changed') reload();
  });
  const words =
    coverage.data &&
    missingGoldWords(coverage.data, (ids) =>
      ids.length === 1
        ? 'restore it in Library → Sources… → Trash'
        : 'restore them in Library → Sources… → Trash',
    );
  if (!words) return null;
  return (
    <p className="note warn small" data-testid="gold-missing">
      {words}
    </p>
  );
}
