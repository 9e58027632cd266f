import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";

/*
 * The interactive API reference (Scalar), served entirely from this origin: the pinned browser build of the npm
 * package @scalar/api-reference instead of an unpinned CDN script. Works offline, and no other origin's code
 * runs next to the reader's bearer token.
 */

export const SCALAR_BUNDLE_PATH = "/api/v1/docs/scalar.js";

const SCALAR_STANDALONE = path.join(
  process.cwd(),
  "node_modules/@scalar/api-reference/dist/browser/standalone.js",
);

/** Read from the page's JSON block, so the page needs no inline script (CSP `script-src 'self'`). */
const MOUNT = `
;(function () {
  var config = document.getElementById("api-reference-config");
  window.Scalar.createApiReference("#app", JSON.parse(config.textContent));
})();
`;

/**
 * Nothing from another origin: no web fonts (fonts.scalar.com), no telemetry, no AI agent or MCP (Scalar's
 * services would receive the document), no developer toolbar (it offers Scalar's hosted deploys); the "try it"
 * client calls this API on this origin. The document is small: every tag opens.
 */
const CONFIGURATION = {
  url: "/api/v1/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  defaultOpenAllTags: true,
};

export interface ScalarBundle {
  body: Uint8Array<ArrayBuffer>;
  /** Content hash: the bundle URL's version, so it can be cached for good. */
  version: string;
  /** Subresource Integrity value for the script tag. */
  integrity: string;
}

let bundle: Promise<ScalarBundle> | undefined;

/** The browser bundle with the mount call appended, read once per process. */
export function scalarBundle(): Promise<ScalarBundle> {
  bundle ??= readFile(SCALAR_STANDALONE, "utf8").then((source) => {
    // Its source map is not served; without the comment the browser does not ask for it.
    const text = source.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n") + MOUNT;
    const body = new Uint8Array(Buffer.from(text, "utf8"));
    return {
      body,
      version: createHash("sha256").update(body).digest("hex").slice(0, 16),
      integrity: `sha384-${createHash("sha384").update(body).digest("base64")}`,
    };
  });
  return bundle;
}

/** JSON inside a <script> element: no "</script>" or "<!--" can end it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll("<", "\\u003c");

export async function apiReferencePage(): Promise<string> {
  const { version, integrity } = await scalarBundle();
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Player Account Read Service — API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script id="api-reference-config" type="application/json">${scriptJson(CONFIGURATION)}</script>
    <script src="${SCALAR_BUNDLE_PATH}?v=${version}" integrity="${integrity}"></script>
  </body>
</html>
`;
}
