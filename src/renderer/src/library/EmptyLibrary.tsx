// The empty Library: where the bundled sample library and its states are on this host, as absolute paths (a relative
// path only worked when the server ran from the repository root).
import { useApi } from '../app/use-api';

export function EmptyLibrary() {
  const paths = useApi('settings.paths', {});
  return (
    <div className="empty-state">
      <h2>The library is empty</h2>
      <p data-testid="empty-library-hint">
        Import a folder of skills above.{' '}
        {paths.data && (
          <>
            The sample library that ships with the app is in <code>{paths.data.sampleLibrary}</code>; its
            reviewed states (<code>{paths.data.sampleStates}</code>) can then be applied under Import… →
            Reviewed states, so the selection has states to work with without an LLM.
          </>
        )}
      </p>
    </div>
  );
}
