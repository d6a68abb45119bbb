// HTTP status for each error code of the contract.
import type { ErrorCode } from '../shared/errors';

const statusByCode: Record<ErrorCode, number> = {
  INVALID_ARGUMENT: 400,
  VALIDATION_FAILED: 422,
  UNSAFE_INPUT: 422,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNAUTHORIZED: 401,
  CANCELLED: 409,
  TOO_LARGE: 413,
  MODEL_ERROR: 502,
  LLM_ERROR: 502,
  ENDPOINT_UNREACHABLE: 502,
  TIMEOUT: 504,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export function httpStatusFor(code: ErrorCode): number {
  return statusByCode[code] ?? 500;
}
