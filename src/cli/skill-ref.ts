// A skill as the CLI names it: its id ("12" or "#12", as lists print it) or its name.
import type { Core } from '../core';

export async function skillIdOf(core: Core, ref: string): Promise<number> {
  const id = /^#?(\d+)$/.exec(ref)?.[1];
  return id ? Number(id) : (await core['library.get']({ name: ref })).id;
}
