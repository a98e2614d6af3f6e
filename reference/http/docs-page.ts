/**
 * The static parts of the API reference page served by `registerDocs` (docs.ts): which
 * swagger-ui-dist files the page loads, the HTML shell, and the script that starts Swagger UI.
 *
 * Everything here is plain strings built once at registration. The start-up script is a separate
 * file rather than an inline `<script>`, so the Content-Security-Policy can forbid inline scripts.
 * The page uses Swagger UI's BaseLayout, not the StandaloneLayout of the dist's own index.html:
 * that layout's top bar lets a visitor load any URL, and it needs a second, 260 kB script.
 */

/** The swagger-ui-dist files the page needs, with the content type each is served with. */
export const SWAGGER_UI_FILES = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "index.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
} as const satisfies Record<string, string>;

export type SwaggerUiFile = keyof typeof SWAGGER_UI_FILES;

export const PAGE_TITLE = "service-contract — API reference";

/** URLs of the page's resources; `assets` is versioned so the files can be cached for a year. */
export interface DocsUrls {
  assets: string;
  init: string;
  spec: string;
}

export function indexHtml(urls: DocsUrls): string {
  const asset = (file: SwaggerUiFile) => `${urls.assets}/${file}`;
  // Absolute URLs: the page answers at both `/docs` and `/docs/`, and a relative href would
  // resolve against a different folder in each.
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${PAGE_TITLE}</title>
<link rel="stylesheet" href="${asset("swagger-ui.css")}">
<link rel="stylesheet" href="${asset("index.css")}">
<link rel="icon" type="image/png" sizes="32x32" href="${asset("favicon-32x32.png")}">
<link rel="icon" type="image/png" sizes="16x16" href="${asset("favicon-16x16.png")}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${asset("swagger-ui-bundle.js")}"></script>
<script src="${urls.init}"></script>
</body>
</html>
`;
}

export function initScript(urls: DocsUrls): string {
  const config = {
    url: urls.spec,
    dom_id: "#swagger-ui",
    deepLinking: true,
    docExpansion: "list",
    filter: true,
    displayRequestDuration: true,
    // Swagger UI would otherwise send the document to validator.swagger.io for a badge.
    validatorUrl: "none",
    // `?url=` / `?configUrl=` in the page address must not load some other host's document.
    queryConfigEnabled: false,
  };
  return `// Starts Swagger UI on the contract served beside this page (see reference/http/docs-page.ts).
"use strict";
window.addEventListener("DOMContentLoaded", function () {
  var config = ${JSON.stringify(config, null, 2).replace(/\n/g, "\n  ")};
  config.presets = [SwaggerUIBundle.presets.apis];
  config.plugins = [SwaggerUIBundle.plugins.DownloadUrl];
  config.layout = "BaseLayout";
  window.ui = SwaggerUIBundle(config);
});
`;
}
