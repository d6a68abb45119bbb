// Delete on the skill page, after a confirmation that says what goes; the Library then offers Undo.
import { useState } from 'react';
import { navigate } from '../app/router';
import { DeleteConfirm } from './DeleteConfirm';

export function DeleteSkillButton({ skillId }: { skillId: number }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <button className="ghost danger" onClick={() => setConfirming(true)}>
        Delete…
      </button>
      {confirming && (
        <div className="delete-skill-confirm">
          <DeleteConfirm
            target={{ skillIds: [skillId] }}
            onCancel={() => setConfirming(false)}
            onDone={() => navigate({ screen: 'library' })}
          />
        </div>
      )}
    </>
  );
}
