/**
 * A small HTML form extractor for the plain-HTTP authorize driver (form.ts). Login and consent
 * pages of real implementations are ordinary server-rendered forms; reading them needs only each
 * form's action, method, its input fields (hidden ones carry CSRF tokens and the authorize
 * request) and its submit buttons. A full HTML parser would be overkill and a new dependency, so
 * this reads tags with a tolerant attribute scanner and decodes the entities pages actually use.
 * Pages that build their forms with script are out of reach by design: use the browser driver.
 */
export interface FormField {
  name: string;
  value: string;
  /** Lower-cased `type` (`hidden`, `text`, `password`, `submit`, …); `textarea` / `select` for those. */
  type: string;
}

export interface SubmitButton {
  name?: string;
  value: string;
  /** The button's visible text (for matching "Authorize" / "Deny" when no name is configured). */
  text: string;
}

export interface HtmlForm {
  /** As written in the page (may be relative or empty: then the page's own URL). */
  action: string;
  method: "GET" | "POST";
  fields: FormField[];
  buttons: SubmitButton[];
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** The attributes of one start tag's inside (`name="x" value='y' disabled`), names lower-cased. */
export function parseAttributes(inside: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([^\s"'<>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const m of inside.matchAll(re)) {
    const name = m[1]!.toLowerCase();
    if (name in out) continue; // HTML: the first occurrence of an attribute wins
    out[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
  }
  return out;
}

function stripTags(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
}

/** Comments and script/style bodies can contain text that looks like tags. */
function withoutInertText(html: string): string {
  return html.replace(/<!--[\s\S]*?-->/g, "").replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, "");
}

function readForm(openTag: string, body: string): HtmlForm {
  const attrs = parseAttributes(openTag);
  const fields: FormField[] = [];
  const buttons: SubmitButton[] = [];
  const tags = /<(input|button|textarea|select)\b([^>]*)>/gi;
  for (const m of body.matchAll(tags)) {
    const tag = m[1]!.toLowerCase();
    const a = parseAttributes(m[2]!);
    if ("disabled" in a) continue;
    const after = body.slice(m.index! + m[0].length);
    if (tag === "input") {
      const type = (a.type ?? "text").toLowerCase();
      if (type === "submit" || type === "image") buttons.push({ name: a.name, value: a.value ?? "", text: a.value ?? "" });
      else if (type === "checkbox" || type === "radio") {
        if ("checked" in a && a.name) fields.push({ name: a.name, value: a.value ?? "on", type });
      } else if (a.name && type !== "button" && type !== "reset" && type !== "file") fields.push({ name: a.name, value: a.value ?? "", type });
    } else if (tag === "button") {
      const type = (a.type ?? "submit").toLowerCase();
      const end = after.search(/<\/button\s*>/i);
      if (type === "submit") buttons.push({ name: a.name, value: a.value ?? "", text: stripTags(end >= 0 ? after.slice(0, end) : "") });
    } else if (tag === "textarea" && a.name) {
      const end = after.search(/<\/textarea\s*>/i);
      fields.push({ name: a.name, value: decodeEntities(end >= 0 ? after.slice(0, end) : "").replace(/^\n/, ""), type: "textarea" });
    } else if (tag === "select" && a.name) {
      const end = after.search(/<\/select\s*>/i);
      const options = [...(end >= 0 ? after.slice(0, end) : "").matchAll(/<option\b([^>]*)>([^<]*)/gi)];
      const chosen = options.find((o) => "selected" in parseAttributes(o[1]!)) ?? options[0];
      if (chosen) fields.push({ name: a.name, value: parseAttributes(chosen[1]!).value ?? decodeEntities(chosen[2]!).trim(), type: "select" });
    }
  }
  const method = (attrs.method ?? "get").toUpperCase() === "POST" ? "POST" : "GET";
  return { action: attrs.action ?? "", method, fields, buttons };
}

/** Every form of a page, in document order. */
export function extractForms(html: string): HtmlForm[] {
  const page = withoutInertText(html);
  const forms: HtmlForm[] = [];
  const opens = [...page.matchAll(/<form\b([^>]*)>/gi)];
  opens.forEach((m, i) => {
    const start = m.index! + m[0].length;
    const close = page.slice(start).search(/<\/form\s*>/i);
    const nextOpen = opens[i + 1]?.index ?? page.length;
    const end = close >= 0 ? Math.min(start + close, nextOpen) : nextOpen;
    forms.push(readForm(m[1]!, page.slice(start, end)));
  });
  return forms;
}

/** The form's successful controls plus the chosen submit button, as the browser would post them. */
export function formData(form: HtmlForm, values: Record<string, string>, button?: SubmitButton): Record<string, string> {
  const data: Record<string, string> = {};
  for (const f of form.fields) data[f.name] = f.value;
  Object.assign(data, values);
  if (button?.name) data[button.name] = button.value;
  return data;
}
