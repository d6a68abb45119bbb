// Where messages send people in Settings, named as the Settings screen heads those groups, so that the core, the CLI
// and the UI never point at a heading that does not exist.

/** The Settings group where embedder and reranker models are set up. */
export const localModelsHeading = 'Local models';
/** The pointer a message gives to that group. */
export const localModelsPlace = `Settings → ${localModelsHeading}`;
