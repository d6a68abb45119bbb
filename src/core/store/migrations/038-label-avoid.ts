import type { Migration } from './index';

// A label item's skills that must not be answered (a should-not-trigger query, skill-creator's should_trigger: false):
// a JSON array of names, null when the item avoids nothing.
export const m038LabelAvoid: Migration = {
  id: 38,
  name: 'label-avoid',
  sql: `
ALTER TABLE label_items ADD COLUMN avoid TEXT;
`,
};
