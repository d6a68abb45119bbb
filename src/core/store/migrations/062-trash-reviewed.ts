import type { Migration } from './index';

// How many of a delete's skills had states a curator edited or verified: such a delete is kept past the trash's last
// 20 until someone empties it, and the trash lists it with that count. Filled here for the deletes already kept.
export const m062TrashReviewed: Migration = {
  id: 62,
  name: 'trash-reviewed',
  sql: `
ALTER TABLE deleted_items ADD COLUMN reviewed_count INTEGER NOT NULL DEFAULT 0;
UPDATE deleted_items SET reviewed_count = (
  SELECT count(*) FROM json_each(deleted_items.payload, '$.skills') AS s,
    json_each(s.value, '$.children.skill_states') AS st
  WHERE json_extract(st.value, '$.status') IN ('edited', 'verified')
);
`,
};
