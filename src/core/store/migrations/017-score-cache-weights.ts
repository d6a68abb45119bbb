import type { Migration } from './index';

// Model scores cached before the engine id named the weights (`<model>@q8` since issue 10): rows under a bare model
// id may hold q8 scores (the slot's dtype `auto` picked q8 on the CPU), which an fp32 run would now be served. The
// cache only saves time, so the model rows go; the lexical engine's rows (`lexical:*`) have no weights and stay.
export const m017ScoreCacheWeights: Migration = {
  id: 17,
  name: 'score-cache-weights',
  sql: `
DELETE FROM score_cache WHERE model_id NOT LIKE 'lexical:%';
`,
};
