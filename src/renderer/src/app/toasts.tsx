// Short confirmations with an optional Undo ("Verified household-heat-object-microwave · Undo"), shown bottom left
// for a few seconds (or until dismissed) in the strip under the content; any screen can raise one.
import { useEffect, useState } from 'react';
import { isTyping } from './keys';

export interface Toast {
  id: number;
  text: string;
  undo?: () => Promise<void> | void;
}

const shownForMs = 6000;
let nextId = 1;
const listeners = new Set<(toasts: Toast[]) => void>();
let current: Toast[] = [];

function publish(next: Toast[]): void {
  current = next;
  for (const listener of listeners) listener(current);
}

export function dismissToast(id: number): void {
  publish(current.filter((t) => t.id !== id));
}

export function showToast(text: string, undo?: Toast['undo']): number {
  const id = nextId++;
  publish([...current.slice(-2), { id, text, undo }]);
  window.setTimeout(() => dismissToast(id), shownForMs);
  return id;
}

/** The last toast that can be undone, for the `u` / Ctrl+Z key. */
export function lastUndoable(): Toast | undefined {
  return [...current].reverse().find((t) => t.undo);
}

export async function undoToast(toast: Toast): Promise<void> {
  dismissToast(toast.id);
  await toast.undo?.();
}

export function Toasts() {
  const [toasts, setToasts] = useState<Toast[]>(current);
  useEffect(() => {
    listeners.add(setToasts);
    // u undoes the newest action that offers an Undo, without reaching for the mouse.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'u' || isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const toast = lastUndoable();
      if (toast) void undoToast(toast);
    };
    window.addEventListener('keydown', onKey);
    return () => {
      listeners.delete(setToasts);
      window.removeEventListener('keydown', onKey);
    };
  }, []);
  if (toasts.length === 0) return null;
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className="notice toast">
          <span>{t.text}</span>
          {t.undo && (
            <button className="ghost" onClick={() => void undoToast(t)} title="Undo (u)">
              Undo
            </button>
          )}
          <button className="ghost" aria-label="Dismiss" onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
