// Keyboard helpers shared by the screens' shortcuts.

/** True while the user types in a field: single-letter shortcuts must not fire then. */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}
