/** Where signing in happens; shared by the proxy, next-auth's options and the browser. */
export const SIGN_IN_PATH = "/sign-in";

/** A callbackUrl is followed only when it is a path on this site (never `//host` or a full URL). */
export function safeCallbackPath(value: string | null | undefined): string {
  if (!value?.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  if (value.startsWith(SIGN_IN_PATH)) return "/";
  return value;
}
