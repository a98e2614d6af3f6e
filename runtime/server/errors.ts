/**
 * The error bodies in the contract's shape (`{message, documentation_url}`; 422 `{message:
 * "Validation Failed", errors: [{resource, field, code}]}`), which the runtime writes itself and
 * handlers write with `errorBody` and `validationFailed` (exported from
 * `service-contract/runtime/server`), and the translation of validator errors (JSON pointers)
 * into 422 items.
 */
import type { ErrorBody, RouteSpec, ValidationErrorItem } from "./types.ts";

export const DEFAULT_DOCUMENTATION_URL = "https://developer.service.example/v3";

/** `{message, documentation_url}`: the body of every error answer of the contract (404, 401, 403…). */
export function errorBody(message: string, documentationUrl: string = DEFAULT_DOCUMENTATION_URL): ErrorBody & { documentation_url: string } {
  return { message, documentation_url: documentationUrl };
}

/** A 422 body: `{message: "Validation Failed", errors, documentation_url}`, for a handler's own checks. */
export function validationFailed(
  errors: readonly ValidationErrorItem[],
  documentationUrl: string = DEFAULT_DOCUMENTATION_URL,
): { message: "Validation Failed"; errors: ValidationErrorItem[]; documentation_url: string } {
  return { message: "Validation Failed", errors: [...errors], documentation_url: documentationUrl };
}

/** `/body/config/url` → `config.url`; `/body/events/0` → `events[0]`; `~1` and `~0` unescaped. */
function fieldOf(tokens: readonly string[]): string {
  let out = "";
  for (const token of tokens) {
    const name = token.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(name) && out) out += `[${name}]`;
    else out += out ? `.${name}` : name;
  }
  return out;
}

/**
 * A validator error → one 422 item. The validators report a missing property as a pointer to
 * that property with the message "is required" (and a missing body as "… is required" at
 * `/body`); everything else is a value the contract does not allow, so `invalid`. `missing`
 * (the resource does not exist) is never produced here: that is the handler's call.
 */
export function validationItem(route: RouteSpec, error: { path: string; message: string }): ValidationErrorItem {
  const [, where = "", ...rest] = error.path.split("/");
  let field = fieldOf(rest);
  if (where === "headers" && rest[0] !== undefined) {
    field = route.headers.find(([lower]) => lower === rest[0])?.[1] ?? rest[0];
  }
  if (!field) field = where || "body";
  const missing = error.message === "is required" || error.message.endsWith("a request body is required");
  return { resource: route.resource, field, code: missing ? "missing_field" : "invalid", message: `${field} ${error.message}` };
}

/** The 422 body for validator errors about a request of `route` (one item per field and code). */
export function requestValidationFailed(route: RouteSpec, errors: readonly { path: string; message: string }[], documentationUrl: string): ErrorBody {
  const seen = new Set<string>();
  const items: ValidationErrorItem[] = [];
  for (const e of errors) {
    const item = validationItem(route, e);
    const key = `${item.field}\0${item.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(item);
  }
  return validationFailed(items, documentationUrl);
}
