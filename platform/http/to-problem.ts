import { isDatabaseUnavailable } from "@/platform/db/unavailable";
import { APP_ERROR_CODES, AppError } from "@/platform/http/errors";
import { describeError, log } from "@/platform/log/log";
import { ApiError, notFound, PROBLEM_TYPES, serviceUnavailable } from "@/platform/problems/problem";

const outageLog = { last: 0, quiet: 0 };

/**
 * Any error thrown on the way of a request, as the problem it answers: an `ApiError` as it is, a not-found
 * `AppError` as 404, a database outage as 503 (one log line per 10 s), anything else as a 500 naming only the
 * request id.
 */
export function toProblem(error: unknown, requestId: string, route: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof AppError && error.code === APP_ERROR_CODES.notFound) return notFound(error.message);
  if (isDatabaseUnavailable(error)) {
    // During an outage every request fails the same way: one line per 10 s says so (the access log has each 503).
    const now = Date.now();
    if (now - outageLog.last >= 10_000) {
      log.warn("database unavailable", {
        requestId,
        route,
        alsoFailedSinceLastLine: outageLog.quiet,
        ...describeError(error),
      });
      outageLog.last = now;
      outageLog.quiet = 0;
    } else {
      outageLog.quiet += 1;
    }
    return serviceUnavailable();
  }
  log.error("unhandled error", { requestId, route, ...describeError(error) });
  return new ApiError({
    status: 500,
    type: PROBLEM_TYPES.internal,
    title: "Internal error",
    detail: `Something went wrong on our side. Quote request id ${requestId} when reporting it.`,
  });
}
