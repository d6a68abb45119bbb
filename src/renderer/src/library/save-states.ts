// Saves the library's states as the JSONL file `states import` reads, for another curator or library: the desktop app
// asks where in the native save dialog and the core writes there; the browser downloads the file.
import { statusesWithStates, type StatusWithStates } from '../../../shared/api/llm';
import type { SaveDialogRequest } from '../../../preload/bridge';
import type { CuratorClient } from '../client/client';
import { saveAsFile } from '../evaluation/save-export';

/** Which skills' states to save. */
export const statesChoices = [
  { value: 'reviewed', label: 'verified and edited', statuses: ['verified', 'edited'] },
  { value: 'verified', label: 'verified only', statuses: ['verified'] },
  { value: 'all', label: 'all with states (parsed too)', statuses: [...statusesWithStates] },
] as const satisfies readonly { value: string; label: string; statuses: readonly StatusWithStates[] }[];
export type StatesChoice = (typeof statesChoices)[number]['value'];

export type StatesSaveOutcome =
  { kind: 'saved'; where: string; skills: number } | { kind: 'empty' } | { kind: 'cancelled' };

const countOf = (byStatus: Record<StatusWithStates, number>) =>
  statusesWithStates.reduce((n, s) => n + byStatus[s], 0);

export async function saveStates(
  client: CuratorClient,
  choice: StatesChoice,
  saveDialog?: (req: SaveDialogRequest) => Promise<string | null>,
  download: (content: string, fileName: string) => void = saveAsFile,
): Promise<StatesSaveOutcome> {
  const statuses = [...statesChoices.find((c) => c.value === choice)!.statuses];
  // Asked first without a path, so that an empty file is never offered for saving.
  const out = await client.call('states.export', { statuses });
  if (countOf(out.byStatus) === 0 && out.suppressions === 0) return { kind: 'empty' };
  if (!saveDialog) {
    download(out.content, out.fileName);
    return { kind: 'saved', where: out.fileName, skills: countOf(out.byStatus) };
  }
  const target = await saveDialog({
    defaultName: out.fileName,
    filters: [{ name: 'JSON Lines', extensions: ['jsonl'] }],
  });
  if (!target) return { kind: 'cancelled' };
  // The native dialog has asked whether to replace a file that is there.
  const written = await client.call('states.export', { statuses, path: target, overwrite: true });
  return { kind: 'saved', where: written.path ?? target, skills: countOf(written.byStatus) };
}
