// Said before and after a run that has neither a parse nor an LLM to make one: the selection then has no sub-tasks or
// states, so "full" is no more than no-graph, and an empty graph is not a bug.
import { useApi } from '../app/use-api';

export function NoParseNote({ hasParse }: { hasParse: boolean }) {
  const settings = useApi('settings.get', {});
  if (hasParse || !settings.data) return null;
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
