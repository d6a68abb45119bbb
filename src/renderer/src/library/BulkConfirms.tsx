// The confirmations of the Library's bulk actions: each says how many skills it touches before anything happens;
// Verify, Back to parsed, Tag and Re-parse are then undone from the Library's lasting undo bar (bulk.undo).
import { useEffect, useState } from 'react';
import type { ParseEstimate } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { showToast } from '../app/toasts';
import { useAction } from '../app/use-api';
import { useVerifyGate } from '../audit/verify-gate';
import { estimateWords } from './parse-words';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

interface ConfirmProps {
  ids: number[];
  onDone(): void;
  onCancel(): void;
}

function Box({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="bulk-confirm" role="alertdialog" aria-label={label}>
      {children}
    </div>
  );
}

export function VerifyConfirm({ ids, onDone, onCancel }: ConfirmProps) {
  const client = useClient();
  const action = useAction();
  const gate = useVerifyGate();
  const verify = async () => {
    const result = await action.run(() =>
      gate.run((acknowledge) =>
        client.call('states.verifyMany', {
          skillIds: ids,
          ...(acknowledge ? { acknowledgeAudit: true } : {}),
        }),
      ),
    );
    if (!result) return;
    // The undo bar says "Verified N skills"; a toast adds only what was left alone.
    const extra = [
      result.alreadyVerified.length ? `${result.alreadyVerified.length} already verified` : '',
      result.skipped.length ? `${result.skipped.length} without states skipped` : '',
    ].filter(Boolean);
    if (extra.length) showToast(`Verified ${plural(result.verified.length, 'skill')} (${extra.join(', ')})`);
    onDone();
  };
  return (
    <Box label="Confirm verify">
      <p>
        Verify {plural(ids.length, 'skill')}? Their current states become verified; skills without states are
        skipped. Undo (in the bar above the list, for as long as you need) puts each back as it was.
      </p>
      <div className="row">
        <button className="primary" autoFocus disabled={action.busy} onClick={() => void verify()}>
          Verify {plural(ids.length, 'skill')}
        </button>
        <button onClick={onCancel}>Cancel</button>
      </div>
      {gate.dialog}
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </Box>
  );
}

export function ReparseManyConfirm({ ids, onDone, onCancel }: ConfirmProps) {
  const client = useClient();
  const action = useAction();
  const [replace, setReplace] = useState(false);
  const [estimate, setEstimate] = useState<ParseEstimate | null>(null);
  useEffect(() => {
    setEstimate(null);
    void action
      .run(() => client.call('parse.estimate', { ids, force: true, replace }))
      .then((e) => e && setEstimate(e));
  }, [client, ids, replace]);
  const start = async () => {
    const job = await action.run(() =>
      client.call('parse.skills', { ids, force: true, bulk: true, ...(replace ? { replace: true } : {}) }),
    );
    if (!job) return;
    showToast(`Re-parse of ${plural(estimate?.toSend ?? ids.length, 'skill')} started (see Jobs)`);
    onDone();
  };
  return (
    <Box label="Confirm re-parse">
      <p>Re-parse {plural(ids.length, 'skill')} with the LLM?</p>
      <p data-testid="reparse-estimate">{estimate ? estimateWords(estimate) : 'Estimating…'}</p>
      <label className="row">
        <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} />
        Replace edited and verified states too (the old ones stay in each skill’s history)
      </label>
      <div className="row">
        <button
          className="primary"
          disabled={action.busy || !estimate || estimate.toSend === 0}
          onClick={() => void start()}
        >
          Re-parse {plural(estimate?.toSend ?? ids.length, 'skill')}
        </button>
        <button onClick={onCancel}>Cancel</button>
      </div>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </Box>
  );
}

export function TagConfirm({ ids, onDone, onCancel }: ConfirmProps) {
  const client = useClient();
  const action = useAction();
  const [text, setText] = useState('');
  const [remove, setRemove] = useState(false);
  const [known, setKnown] = useState<string[]>([]);
  useEffect(() => {
    void client.call('tags.list', {}).then(
      (list) => setKnown(list.map((t) => t.tag)),
      () => undefined,
    );
  }, [client]);
  const tags = text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const apply = async () => {
    // Recorded as one bulk change: Undo (the undo bar) changes back only the (skill, tag) pairs this changed.
    const change = await action.run(async () =>
      remove
        ? (await client.call('tags.remove', { skillIds: ids, tags, bulk: true })).change
        : (await client.call('tags.add', { skillIds: ids, tags, bulk: true })).change,
    );
    if (change === undefined) return;
    if (change === null)
      showToast(
        remove ? 'None of them had those tags: nothing changed' : 'All of them had those tags already',
      );
    onDone();
  };
  const verb = remove ? `Take off ${plural(ids.length, 'skill')}` : `Tag ${plural(ids.length, 'skill')}`;
  return (
    <Box label="Confirm tag">
      <div className="row" role="radiogroup" aria-label="Add or take off">
        <label>
          <input type="radio" checked={!remove} onChange={() => setRemove(false)} /> Add
        </label>
        <label>
          <input type="radio" checked={remove} onChange={() => setRemove(true)} /> Take off
        </label>
      </div>
      <p>
        {remove
          ? `Take these tags off ${plural(ids.length, 'skill')}:`
          : `Tag ${plural(ids.length, 'skill')} with:`}
      </p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (tags.length) void apply();
        }}
      >
        <input
          autoFocus
          list="known-tags"
          aria-label="Tags"
          placeholder="tag, another tag"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <datalist id="known-tags">
          {known.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <button className="primary" type="submit" disabled={action.busy || tags.length === 0}>
          {verb}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </form>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </Box>
  );
}

export function BackToParsedConfirm({ ids, onDone, onCancel }: ConfirmProps) {
  const client = useClient();
  const action = useAction();
  const run = async () => {
    const result = await action.run(() => client.call('bulk.backToParsed', { skillIds: ids }));
    if (!result) return;
    const notes = [
      result.edited.length
        ? `${plural(result.edited.length, 'skill')} with a person’s states back to edited`
        : '',
      result.notVerified.length ? `${result.notVerified.length} not verified, left as they were` : '',
    ].filter(Boolean);
    if (notes.length || !result.change) showToast(notes.join(' · ') || 'None of them was verified');
    onDone();
  };
  return (
    <Box label="Confirm back to parsed">
      <p>
        Take the verification off the verified ones among {plural(ids.length, 'skill')}? Their states stay as
        they are. States a person wrote or changed go back to edited, so a re-parse still keeps them; the
        others go back to parsed.
      </p>
      <div className="row">
        <button className="primary" autoFocus disabled={action.busy} onClick={() => void run()}>
          Back to parsed
        </button>
        <button onClick={onCancel}>Cancel</button>
      </div>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </Box>
  );
}
