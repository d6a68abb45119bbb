// Where the MCP server finds profiles (named skill sets). The profiles module plugs in here; until it is in this build,
// listing says so and serving a profile is refused with that reason.
import { CuratorError } from '../shared/errors';

export interface ProfileSummary {
  name: string;
  skillCount: number;
  description?: string;
}

export interface ProfileSource {
  /** false: profiles are not part of this build (list is empty, skillIds refuses). */
  available: boolean;
  list(): Promise<ProfileSummary[]>;
  /** The ids of the profile's skills now; NOT_FOUND for an unknown name. */
  skillIds(name: string): Promise<number[]>;
}

export const noProfiles: ProfileSource = {
  available: false,
  list: async () => [],
  skillIds: async (name) => {
    throw new CuratorError(
      'UNAVAILABLE',
      `Cannot serve profile "${name}": profiles are not part of this build yet; use --allow all or --allow verified`,
    );
  },
};
