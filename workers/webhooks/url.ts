/*
 * Which endpoint URLs a webhook may be delivered to: absolute http(s) URLs without credentials or fragment. The CLI
 * refuses others when an endpoint is added, and the dispatcher checks again before every POST (a row written by
 * hand is refused, its delivery marked failed, nothing sent).
 */
export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

export function checkWebhookUrl(text: string): UrlCheck {
  if (text.length > 2_000) return { ok: false, reason: "the URL is longer than 2,000 characters" };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: "not an absolute URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, reason: `scheme ${url.protocol} refused: only http and https` };
  if (url.username || url.password)
    return { ok: false, reason: "credentials in the URL refused: authenticate by the signature" };
  if (url.hash) return { ok: false, reason: "a fragment has no meaning in a webhook URL" };
  if (!url.hostname) return { ok: false, reason: "no host" };
  return { ok: true, url };
}
