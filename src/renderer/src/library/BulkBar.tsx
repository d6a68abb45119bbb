// The bar over the Library list while skills are ticked: Verify, Back to parsed, Re-parse, Tag and Delete for the
// selection, each behind a confirmation that gives the count. Each is undone from the Library's lasting undo bar.
import { useMemo, useState } from 'react';
import { DeleteConfirm } from './DeleteConfirm';
import { BackToParsedConfirm, ReparseManyConfirm, TagConfirm, VerifyConfirm } from './BulkConfirms';

export type BulkAction = 'verify' | 'unverify' | 'reparse' | 'tag' | 'delete';

export function BulkBar({
  selected,
  shown,
  onSelectAll,
  onClear,
  onDone,
}: {
  selected: ReadonlySet<number>;
  /** How many skills the list shows (what "Select all" ticks). */
  shown: number;
  onSelectAll(): void;
  onClear(): void;
  onDone(action: BulkAction): void;
}) {
  const [action, setAction] = useState<BulkAction | null>(null);
  const ids = useMemo(() => [...selected].sort((a, b) => a - b), [selected]);
  const n = ids.length;
  const finish = () => {
    if (action) onDone(action);
    setAction(null);
  };
  const cancel = () => setAction(null);
  const button = (which: BulkAction, label: string) => (
    <button
      className={action === which ? 'primary' : ''}
      disabled={n === 0}
      onClick={() => setAction(action === which ? null : which)}
    >
      {label}
    </button>
  );
  if (n === 0)
    return (
      <div className="bulk-bar quiet muted small" data-testid="bulk-bar">
        <button className="link" onClick={onSelectAll}>
          Select all {shown} shown
        </button>
        <span>
          or tick skills (shift-click for a range, x on a focused row) to verify, un-verify, re-parse, tag or
          delete them together
        </span>
      </div>
    );
  return (
    <>
      <div className="bulk-bar" role="toolbar" aria-label="Bulk actions" data-testid="bulk-bar">
        <strong data-testid="selected-count">{n} selected</strong>
        {n < shown && (
          <button className="link" onClick={onSelectAll}>
            Select all {shown} shown
          </button>
        )}
        <button className="link" onClick={onClear}>
          Clear selection
        </button>
        <span className="spacer" />
        {button('verify', 'Verify…')}
        {button('unverify', 'Back to parsed…')}
        {button('reparse', 'Re-parse…')}
        {button('tag', 'Tag…')}
        {button('delete', 'Delete…')}
      </div>
      {action === 'verify' && <VerifyConfirm ids={ids} onDone={finish} onCancel={cancel} />}
      {action === 'unverify' && <BackToParsedConfirm ids={ids} onDone={finish} onCancel={cancel} />}
      {action === 'reparse' && <ReparseManyConfirm ids={ids} onDone={finish} onCancel={cancel} />}
      {action === 'tag' && <TagConfirm ids={ids} onDone={finish} onCancel={cancel} />}
      {action === 'delete' && <DeleteConfirm target={{ skillIds: ids }} onDone={finish} onCancel={cancel} />}
    </>
  );
}
