// Where the MCP server finds profiles (named skill sets): the library's own, read at each call so a profile the
// curator edits while the server runs is served as it is now.
import type { ProfilesContext } from '../core/profiles';
import { listProfiles, resolveProfileSkillIds } from '../core/profiles';

export interface ProfileListing {
  name: string;
  description: string;
  skillCount: number;
}

export interface ProfileSource {
  list(): Promise<ProfileListing[]>;
  /** The ids of the profile's skills now; NOT_FOUND for an unknown name. */
  skillIds(name: string): Promise<number[]>;
}

export function libraryProfiles(ctx: ProfilesContext): ProfileSource {
  return {
    list: async () =>
      listProfiles(ctx).map((p) => ({ name: p.name, description: p.description, skillCount: p.skillCount })),
    skillIds: async (name) => resolveProfileSkillIds(ctx, name),
  };
}
