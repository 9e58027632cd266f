/*
 * Errors of the domain, thrown by data functions (documenso's AppError pattern): they know that a player does not
 * exist; how that is answered (a 404 problem) is the HTTP layer's business (platform/http/api-handler.ts, toProblem).
 */

export const APP_ERROR_CODES = {
  /** The entity named by the caller does not exist. */
  notFound: "NOT_FOUND",
} as const;

export type AppErrorCode = (typeof APP_ERROR_CODES)[keyof typeof APP_ERROR_CODES];

export class AppError extends Error {
  readonly code: AppErrorCode;

  constructor(code: AppErrorCode, message: string) {
    super(message);
    this.name = "AppError";
    this.code = code;
  }
}

/** No player has this id (ids are exact: not case-folded). */
export function playerNotFound(playerId: string): AppError {
  return new AppError(APP_ERROR_CODES.notFound, `No player with id '${playerId}'.`);
}
