// Profiles: named sets of skills (by hand, by filter, from a selection run or an evaluation run's answers).
export {
  addToProfile,
  checkProfileName,
  createProfile,
  deleteProfile,
  getProfile,
  listProfiles,
  removeFromProfile,
  resolveProfileSkillIds,
  skillIdsByName,
  updateProfile,
  type ProfilesContext,
} from './profiles-store';
export { checkFilter, skillIdsMatching } from './profile-filter';
export { skillIdsOfEvalRun, skillIdsOfSelectionRun } from './from-runs';
