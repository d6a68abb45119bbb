// What a CLI command says about a library still converting (search answers from the old index meanwhile).
import type { Core } from '../core';
import { conversionProgress, conversionState } from '../core/store/text-index-conversion';

export function conversionNote(core: Core): string | null {
  const { db } = core.context;
  if (!conversionState(db)) return null;
  const { done, total } = conversionProgress(db);
  return `this library is being converted to store each skill text once, compressed (${done} of ${total} skills); run \`convert\` to finish it (searches answer as before meanwhile)`;
}
