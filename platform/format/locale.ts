/**
 * The one locale every number and date on a page is written in, on the server and in the browser alike.
 * The server renders the first view and the browser hydrates it: if each used its own default locale (Node's,
 * the browser's), a browser set to another one (de-DE, en-GB) would disagree with the HTML on every figure, and
 * React would throw the server's page away and render it again. The interface is written in English, so its
 * figures are too (docs/decisions.md).
 */
export const DISPLAY_LOCALE = "en-US";
