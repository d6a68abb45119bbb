// A skill's tags on its page: each with × to take it off, and a field to add more (existing tags offered).
import { useState } from 'react';
import { ErrorNote } from '../app/ErrorNote';
import { useClient, useCuratorEvent } from '../app/context';
import { navigate } from '../app/router';
import { useAction, useApi } from '../app/use-api';
import './bulk.css';

export function TagEditor({ skillId }: { skillId: number }) {
  const client = useClient();
  const action = useAction();
  const mine = useApi('tags.of', { skillIds: [skillId] });
  const known = useApi('tags.list', {});
  const [text, setText] = useState('');
  const { reload } = mine;
  const { reload: reloadKnown } = known;
  useCuratorEvent((event) => {
    if (event.type === 'library.changed') {
      reload();
      reloadKnown();
    }
  });
  const tags = mine.data?.[skillId] ?? [];
  const add = async () => {
    const list = text.split(',').filter((t) => t.trim() !== '');
    if (list.length === 0) return;
    if (await action.run(() => client.call('tags.add', { skillIds: [skillId], tags: list }))) setText('');
    reload();
  };
  const remove = async (tag: string) => {
    await action.run(() => client.call('tags.remove', { skillIds: [skillId], tags: [tag] }));
    reload();
  };
  return (
    <div className="tag-editor" aria-label="Tags" data-testid="tag-editor">
      <span className="muted small">Tags</span>
      {tags.map((tag) => (
        <span key={tag} className="tag">
          <a
            href="#/library"
            title={`Library skills tagged ${tag}`}
            onClick={(e) => {
              e.preventDefault();
              sessionStorage.setItem('library.tag', tag);
              navigate({ screen: 'library' });
            }}
          >
            {tag}
          </a>
          <button aria-label={`Remove tag ${tag}`} onClick={() => void remove(tag)} disabled={action.busy}>
            ×
          </button>
        </span>
      ))}
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <input
          list={`tags-for-${skillId}`}
          aria-label="Add a tag"
          placeholder="add a tag"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <datalist id={`tags-for-${skillId}`}>
          {(known.data ?? [])
            .filter((t) => !tags.includes(t.tag))
            .map((t) => (
              <option key={t.tag} value={t.tag} />
            ))}
        </datalist>
        <button type="submit" disabled={action.busy || text.trim() === ''}>
          Add
        </button>
      </form>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
    </div>
  );
}
