/**
 * HTML for the web host's pages: a tagged template that escapes every interpolated value (only
 * values already built by `html` pass through unescaped), one layout with its stylesheet, and the
 * security headers every page carries. The Content-Security-Policy allows no script at all and
 * only the layout's own inline stylesheet (by hash); `form-action` lists this host plus the
 * origins a form's answer may redirect to (Chromium applies form-action to those redirects too).
 */
import { createHash } from "node:crypto";

export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

type Interpolation = SafeHtml | string | number | null | undefined | false | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;background:#f6f8fa;color:#1f2328;font:15px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif}
main{max-width:460px;margin:48px auto;padding:0 16px}
.brand{text-align:center;font-weight:600;font-size:20px;margin-bottom:16px;color:#1f2328}
.card{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:24px}
h1{font-size:20px;font-weight:500;margin:0 0 12px;text-align:center}
p{margin:8px 0}
.muted{color:#59636e;font-size:13px}
label{display:block;font-weight:600;margin:12px 0 4px}
input[type=text],input[type=password]{width:100%;padding:7px 10px;font-size:15px;border:1px solid #d0d7de;border-radius:6px}
.error{background:#ffebe9;border:1px solid #ff818266;border-radius:6px;padding:10px 12px;margin-bottom:12px;color:#82071e}
ul.scopes{list-style:none;padding:0;margin:12px 0;border:1px solid #d0d7de;border-radius:6px}
ul.scopes li{padding:10px 12px;border-top:1px solid #d0d7de}
ul.scopes li:first-child{border-top:0}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;background:#eff2f5;padding:1px 5px;border-radius:4px}
.actions{display:flex;gap:12px;margin-top:20px}
button{flex:1;padding:8px 16px;font-size:15px;font-weight:600;border-radius:6px;border:1px solid #d0d7de;background:#f6f8fa;color:#1f2328;cursor:pointer}
button.primary{background:#1f883d;border-color:#1a7f37;color:#fff}
button.danger{background:#fff;border-color:#d0d7de;color:#d1242f}
form.inline{display:inline}
form.inline button{flex:none;padding:0;border:0;background:none;color:#0969da;font-weight:400;font-size:13px}
footer{text-align:center;margin-top:16px}
a{color:#0969da}
`;

const STYLE_HASH = `'sha256-${createHash("sha256").update(CSS, "utf8").digest("base64")}'`;

export interface Page {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export interface PageOptions {
  status?: number;
  /** Origins besides this host that a form on the page may end up at (after redirects). */
  formTargets?: readonly string[];
}

export function securityHeaders(formTargets: readonly string[] = []): Record<string, string> {
  const formAction = ["'self'", ...new Set(formTargets)].join(" ");
  return {
    "Content-Security-Policy": `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self' data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    // Same-origin keeps state and codes out of Referer headers to other sites, while our own form
    // posts still carry a real Origin (no-referrer would turn it into "null").
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
  };
}

export function page(title: string, content: SafeHtml, options: PageOptions = {}): Page {
  const body = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${new SafeHtml(CSS)}</style>
</head>
<body>
<main>
<div class="brand">Service</div>
${content}
</main>
</body>
</html>
`;
  return { status: options.status ?? 200, body: body.text, headers: securityHeaders(options.formTargets) };
}
