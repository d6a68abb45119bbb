import type { Migration } from './index';

/** Which process runs a job, and when it last said so: only a job whose owner is gone may be marked interrupted. */
export const m003JobOwner: Migration = {
  id: 3,
  name: 'job-owner',
  sql: `
ALTER TABLE jobs ADD COLUMN owner_pid INTEGER;
ALTER TABLE jobs ADD COLUMN owner_host TEXT;
ALTER TABLE jobs ADD COLUMN owner_id TEXT;
ALTER TABLE jobs ADD COLUMN heartbeat_ms INTEGER;
`,
};
