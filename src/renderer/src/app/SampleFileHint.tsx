// Where a bundled sample file is on this host (an absolute path: a relative one only worked when the server ran from
// the repository root), with a button that puts it in the form's path field.
import type { SamplePaths } from '../../../shared/api';
import { useApi } from './use-api';

export function SampleFileHint({
  file,
  label,
  onUse,
}: {
  file: keyof Omit<SamplePaths, 'resourcesDir'>;
  label: string;
  onUse: (path: string) => void;
}) {
  const paths = useApi('settings.paths', {});
  const where = paths.data?.[file];
  if (!where) return null;
  return (
    <>
      {' '}
      The {label} that ship with the app are in <code>{where}</code>.{' '}
      <button type="button" className="link" onClick={() => onUse(where)}>
        Use them
      </button>
    </>
  );
}
