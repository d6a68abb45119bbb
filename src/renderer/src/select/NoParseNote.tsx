// Said before a run without a parse in the editor: which parse the selection will use. A parse stored for this exact
// task text (a label set's hand parse, one typed by hand earlier, an earlier LLM parse) is used as it is; with none
// and no LLM to make one the selection has no sub-tasks or states, so "full" is no more than no-graph, and an empty
// graph is not a bug.
import type { StoredParseSource } from '../../../shared/presets';
import { useApi } from '../app/use-api';

const storedWords: Record<StoredParseSource, string> = {
  label: 'the hand parse a label set gives this task',
  manual: 'the parse typed by hand for this task earlier',
  llm: 'the LLM’s earlier parse of this task',
};

export function NoParseNote({
  hasParse,
  storedParse,
  pending,
  onShow,
}: {
  hasParse: boolean;
  /** The stored parse the selection will use, as the estimate says; null when it says there is none. */
  storedParse: StoredParseSource | null;
  /** The estimate for the task typed is still coming: say nothing yet rather than something it may contradict. */
  pending: boolean;
  /** Puts the stored parse in the editor. */
  onShow: () => void;
}) {
  const settings = useApi('settings.get', {});
  if (hasParse || pending || !settings.data) return null;
  if (storedParse)
    return (
      <p className="muted small" data-testid="stored-parse-note">
        No parse given: Select skills will use {storedWords[storedParse]}.{' '}
        <button className="link" onClick={onShow}>
          Show it
        </button>
      </p>
    );
  if (settings.data.llm.model.trim() !== '')
    return (
      <span className="muted small"> Without a parse the LLM parses the task (Settings → LLM endpoint).</span>
    );
  return (
    <p className="note warn small" data-testid="no-parse-note">
      No LLM endpoint is set and no parse was given, so this run has no sub-tasks or states: full works like
      no-graph. Give a parse below, pick a sample task, or set an LLM in <a href="#/settings">Settings</a>.
    </p>
  );
}
