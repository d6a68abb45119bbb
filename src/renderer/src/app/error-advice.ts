// What the user can do about an API error, in one line (shown under it by ErrorNote).
import { endpointHint, problemOf } from '../../../shared/endpoint-hints';
import type { ApiErrorData } from '../../../shared/errors';

// CONFLICT has no advice of its own either: it is a running job, a name taken, a file there already... and each
// message says which; a running job (details.jobId) gets the way to it.
// UNAVAILABLE has no advice of its own: an endpoint that failed or a missing index says so in its message and
// problem; only a method missing from this build (details.notInBuild) gets the build advice.
const advice: Partial<Record<ApiErrorData['code'], string>> = {
  UNAUTHORIZED:
    'The access token is missing or wrong: open the address printed by `skill-curator serve` again.',
  ENDPOINT_UNREACHABLE: 'Check the address in Settings (or that the server is running) and try again.',
  TIMEOUT: 'The call took too long. Try again, or raise the timeout in Settings.',
  NOT_FOUND: 'It may have been removed; go back to the list and reload.',
  INVALID_ARGUMENT: 'Check the values you entered.',
  VALIDATION_FAILED: 'Fix the problems listed and try again.',
  LLM_ERROR: 'Check the LLM endpoint and model in Settings, then use “Test connection”.',
  MODEL_ERROR: 'Check the model folder in Settings and use “Verify”.',
  CANCELLED: 'It was cancelled; you can start it again.',
  INTERNAL: 'Something went wrong inside the app; the log has the details.',
};

const notInBuild =
  'This feature is not available in this build of the backend yet; the other screens still work.';

// The endpoint answered, but not in the format asked for: the connection test would pass, so it is no help.
const garbled =
  'The endpoint works, but the model did not answer in the format asked for: try again, choose a stronger model in Settings, or write it by hand.';

const busyJob = 'Follow it, or cancel it, on the Jobs screen (Jobs in the top bar).';

export function adviceFor(error: ApiErrorData): string | undefined {
  // The thrower knows best: an error whose details carry a hint (e.g. a missing path) gets that one.
  const own = (error.details as { hint?: unknown } | undefined)?.hint;
  if (typeof own === 'string' && own) return own;
  const hint = endpointHint(problemOf(error.details));
  if (hint) return hint;
  if ((error.details as { notInBuild?: unknown } | undefined)?.notInBuild === true) return notInBuild;
  const details = error.details as { raw?: unknown; reason?: unknown } | undefined;
  if (error.code === 'LLM_ERROR' && typeof details?.raw === 'string' && typeof details.reason === 'string')
    return garbled;
  if (
    error.code === 'CONFLICT' &&
    typeof (error.details as { jobId?: unknown } | undefined)?.jobId === 'string'
  )
    return busyJob;
  return advice[error.code];
}
