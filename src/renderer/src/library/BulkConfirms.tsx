// The confirmations of the Library's bulk actions: each says how many skills it touches before anything happens,
// and its toast offers Undo where the action can be undone.
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
    const done = result.verified;
    const extra = [
      result.alreadyVerified.length ? `${result.alreadyVerified.length} already verified` : '',
      result.skipped.length ? `${result.skipped.length} without states skipped` : '',
    ].filter(Boolean);
    showToast(
      `Verified ${plural(done.length, 'skill')}${extra.length ? ` (${extra.join(', ')})` : ''}`,
      done.length
        ? async () => {
            const { reverted } = await client.call('states.unverifyMany', { skillIds: done });
            showToast(`${plural(reverted.length, 'skill')} back to the states before Verify`);
          }
        : undefined,
    );
    onDone();
  };
  return (
    <Box label="Confirm verify">
      <p>
        Verify {plural(ids.length, 'skill')}? Their current states become verified; skills without states are
        skipped. Undo puts each back as it was.
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
      client.call('parse.skills', { ids, force: true, ...(replace ? { replace: true } : {}) }),
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
    const done = await action.run(async () => {
      // Undo takes a tag off only the skills that did not have it before.
      const before = await client.call('tags.of', { skillIds: ids });
      const result = await client.call('tags.add', { skillIds: ids, tags });
      return { before, result };
    });
    if (!done) return;
    const lower = tags.map((t) => t.toLowerCase().replace(/\s+/g, ' '));
    showToast(`Tagged ${plural(ids.length, 'skill')} ${lower.map((t) => `“${t}”`).join(', ')}`, async () => {
      for (const tag of lower) {
        const fresh = ids.filter((id) => !(done.before[id] ?? []).includes(tag));
        if (fresh.length) await client.call('tags.remove', { skillIds: fresh, tags: [tag] });
      }
    });
    onDone();
  };
  return (
    <Box label="Confirm tag">
      <p>Tag {plural(ids.length, 'skill')} with:</p>
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
          Tag {plural(ids.length, 'skill')}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </form>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </Box>
  );
}
