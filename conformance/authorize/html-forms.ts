/**
 * The HTML form reader of the plain-HTTP authorize driver (form.ts) and the review-page cases.
 * Login and consent pages of real implementations are ordinary server-rendered forms; reading
 * them needs each form's action, method, its input fields (hidden ones carry CSRF tokens and the
 * authorize request) and its submit buttons.
 *
 * The page comes from the target, which may be hostile: it is read with parse5's tokenizer (the
 * HTML standard's tokenization, entities and all) in one pass, with no tree, so the time is linear
 * in the page whatever it holds — unclosed comments, scripts, tags or a million nested elements
 * (a tree builder's scope checks are not: they walk the open elements). Only the first
 * MAX_FORM_PAGE_CHARS are read: a login page is a few tens of kilobytes. What the tree builder
 * would add is kept by hand where forms depend on it: raw-text elements (script, style, textarea,
 * title…) switch the tokenizer's state as the standard's parser does, a `<form>` inside an open
 * form is ignored, `<template>` content is inert. Pages that build their forms with script are
 * out of reach by design: use the browser driver.
 */
import { Tokenizer, TokenizerMode, type TokenHandler, type Token } from "parse5";

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

/** How much of a page is read for forms (characters); the rest is ignored. */
export const MAX_FORM_PAGE_CHARS = 512 * 1024;

/** Elements whose content is text, not markup: the state the standard's tree builder puts the tokenizer in. */
const TEXT_CONTENT: Record<string, (typeof TokenizerMode)[keyof typeof TokenizerMode]> = {
  script: TokenizerMode.SCRIPT_DATA,
  style: TokenizerMode.RAWTEXT,
  xmp: TokenizerMode.RAWTEXT,
  iframe: TokenizerMode.RAWTEXT,
  noembed: TokenizerMode.RAWTEXT,
  noframes: TokenizerMode.RAWTEXT,
  textarea: TokenizerMode.RCDATA,
  title: TokenizerMode.RCDATA,
  plaintext: TokenizerMode.PLAINTEXT,
};

function attributes(tag: Token.TagToken): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of tag.attrs) out[a.name] ??= a.value; // the tokenizer lower-cases names and drops repeats
  return out;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** What is being read inside the current form: a button's text, a textarea's value, a select's options. */
type Open =
  | { kind: "button"; attrs: Record<string, string>; text: string[] }
  | { kind: "textarea"; attrs: Record<string, string>; text: string[] }
  | { kind: "select"; attrs: Record<string, string>; options: { attrs: Record<string, string>; text: string[] }[]; inOption: boolean };

/** Every form of a page, in document order (of its first MAX_FORM_PAGE_CHARS characters). */
export function extractForms(html: string): HtmlForm[] {
  const forms: HtmlForm[] = [];
  let form: HtmlForm | undefined;
  let open: Open | undefined;
  let templates = 0;

  const close = (): void => {
    const o = open;
    open = undefined;
    if (!o || !form) return;
    if (o.kind === "button") {
      if ((o.attrs.type ?? "submit").toLowerCase() === "submit") form.buttons.push({ name: o.attrs.name, value: o.attrs.value ?? "", text: collapse(o.text.join("")) });
    } else if (o.kind === "textarea") {
      if (o.attrs.name) form.fields.push({ name: o.attrs.name, value: o.text.join("").replace(/^\n/, ""), type: "textarea" });
    } else if (o.attrs.name) {
      const chosen = o.options.find((x) => "selected" in x.attrs) ?? o.options[0];
      if (chosen) form.fields.push({ name: o.attrs.name, value: chosen.attrs.value ?? collapse(chosen.text.join("")), type: "select" });
    }
  };

  const input = (a: Record<string, string>): void => {
    const type = (a.type ?? "text").toLowerCase();
    if (type === "submit" || type === "image") form!.buttons.push({ name: a.name, value: a.value ?? "", text: a.value ?? "" });
    else if (type === "checkbox" || type === "radio") {
      if ("checked" in a && a.name) form!.fields.push({ name: a.name, value: a.value ?? "on", type });
    } else if (a.name && type !== "button" && type !== "reset" && type !== "file") form!.fields.push({ name: a.name, value: a.value ?? "", type });
  };

  const text = (token: Token.CharacterToken): void => {
    if (templates > 0 || !open) return;
    if (open.kind === "select") {
      if (open.inOption) open.options.at(-1)!.text.push(token.chars);
    } else open.text.push(token.chars);
  };

  const handler: TokenHandler = {
    onParseError: null,
    onComment() {},
    onDoctype() {},
    onEof() {},
    onCharacter: text,
    onWhitespaceCharacter: text,
    onNullCharacter() {},
    onStartTag(tag) {
      const mode = TEXT_CONTENT[tag.tagName];
      if (mode !== undefined && !tag.selfClosing) tokenizer.state = mode;
      if (tag.tagName === "template") templates++;
      if (templates > 0) return;
      const a = attributes(tag);
      if (tag.tagName === "form") {
        // As the tree builder: a form inside an open form is no form (the form element pointer).
        if (!form) forms.push((form = { action: a.action ?? "", method: (a.method ?? "get").toUpperCase() === "POST" ? "POST" : "GET", fields: [], buttons: [] }));
        return;
      }
      const control = ["input", "button", "textarea", "select"].includes(tag.tagName);
      if (open?.kind === "select" && !control) {
        if (tag.tagName === "option") open.options.push({ attrs: a, text: [] });
        open.inOption = tag.tagName === "option";
        return;
      }
      if (!form || !control) return;
      // A control ends an unclosed select (as the tree builder's "in select" mode), a button or select another.
      if (tag.tagName !== "input" || open?.kind === "select") close();
      if ("disabled" in a) return;
      if (tag.tagName === "input") input(a);
      else if (tag.tagName === "select") open = { kind: "select", attrs: a, options: [], inOption: false };
      else open = { kind: tag.tagName as "button" | "textarea", attrs: a, text: [] };
    },
    onEndTag(tag) {
      if (tag.tagName === "template") {
        templates = Math.max(0, templates - 1);
        return;
      }
      if (templates > 0) return;
      if (open?.kind === "select" && tag.tagName !== "select") {
        if (tag.tagName === "option" || tag.tagName === "optgroup") open.inOption = false;
        return;
      }
      if (open && tag.tagName === open.kind) close();
      if (tag.tagName === "form") {
        close();
        form = undefined;
      }
    },
  };
  const tokenizer = new Tokenizer({}, handler);
  tokenizer.write(html.length > MAX_FORM_PAGE_CHARS ? html.slice(0, MAX_FORM_PAGE_CHARS) : html, true);
  close();
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
