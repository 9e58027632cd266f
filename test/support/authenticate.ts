import { type ApiPrincipal, authenticate } from "../../platform/auth/api-auth.ts";

/**
 * `authenticate` (the first step of admission, platform/http/admission.ts) as a promise: it answers at once when it
 * can and may throw synchronously; here a synchronous throw becomes a rejection, so a test awaits one shape.
 */
export function authenticated(headers: Headers): Promise<ApiPrincipal> {
  return new Promise((resolve) => resolve(authenticate(headers)));
}
