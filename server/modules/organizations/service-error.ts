/**
 * Typed errors of the organisations and profile services. `code` maps to an HTTP status in the
 * REST handlers (`server/http/errors.ts` codes, plus PAYLOAD_TOO_LARGE / UNSUPPORTED_MEDIA_TYPE).
 */
export type ServiceErrorCode =
  | "BAD_USER_INPUT"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "SESSION_NOT_FRESH"
  | "INVALID_PASSWORD"
  | "NO_SEATS"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "TOO_MANY_ATTEMPTS";

export const SERVICE_ERROR_STATUS: Record<ServiceErrorCode, 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  SESSION_NOT_FRESH: 403,
  INVALID_PASSWORD: 400,
  NO_SEATS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_ATTEMPTS: 429,
};

export class ServiceError extends Error {
  override name = "ServiceError";
  readonly code: ServiceErrorCode;
  /** Field errors (field → message) for BAD_USER_INPUT. */
  readonly fields: Record<string, string> | undefined;
  constructor(code: ServiceErrorCode, message: string, fields?: Record<string, string>) {
    super(message);
    this.code = code;
    this.fields = fields;
  }
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof ServiceError;
}
