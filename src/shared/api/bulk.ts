// What the Library's bulk actions did, kept until undone: the lasting Undo bar reads the newest one, and Undo puts
// back exactly what it changed, skipping (and naming) the skills someone changed again since.

export type BulkChangeKind = 'verify' | 'back-to-parsed' | 'tag-add' | 'tag-remove' | 'reparse';

export interface BulkChange {
  id: number;
  kind: BulkChangeKind;
  /** What Undo takes back, in words: "Verified 37 skills", "Tagged 3 skills “needs work”", "Re-parsed 12 skills". */
  label: string;
  /** Skills it changed (a re-parse: so far). */
  skillCount: number;
  /** The tags of a tag change (otherwise []). */
  tags: string[];
  /** The re-parse job; Undo waits until it has ended. */
  jobId: string | null;
  running: boolean;
  at: string;
  undoneAt: string | null;
}

export interface BulkUndoSkip {
  skillId: number;
  /** null: the skill is not in the library any more. */
  name: string | null;
  /** What changed it since: "edited at 2026-03-01 10:02" (UTC), "deleted", "“kitchen” already taken off". */
  reason: string;
}

export interface BulkUndoResult {
  change: BulkChange;
  /** Skills put back as they were before the change. */
  restored: number[];
  /** Skills left alone because they changed again since (a later edit is never overwritten). */
  skipped: BulkUndoSkip[];
  /** In words: "3 skills back as they were; 1 left as it is because it changed since: beta (edited at …)". */
  message: string;
}

export interface BackToParsedResult {
  /** Verified skills now parsed again, their states unchanged. */
  parsed: number[];
  /** Verified skills whose states a person wrote or changed: back to edited, so a re-parse still keeps them. */
  edited: number[];
  /** Skills that were not verified, left as they were. */
  notVerified: number[];
  change: BulkChange | null;
}

export interface BulkApi {
  /** The newest bulk change not undone yet (a finished re-parse that changed nothing does not count), or null. */
  'bulk.last'(req: Record<string, never>): Promise<BulkChange | null>;
  /**
   * Undoes one bulk change: each skill gets back what it had before it (states and status; tags), in one
   * transaction. A skill changed again since (edited, verified, re-parsed, reverted, deleted) is skipped and named.
   * Refused (CONFLICT) for a change already undone or a re-parse still running.
   */
  'bulk.undo'(req: { id: number }): Promise<BulkUndoResult>;
  /** Un-verifies the verified skills among skillIds, keeping their states; recorded as a bulk change (undoable). */
  'bulk.backToParsed'(req: { skillIds: number[] }): Promise<BackToParsedResult>;
}

export const bulkMethods = ['bulk.last', 'bulk.undo', 'bulk.backToParsed'] as const;
