/**
 * The OAuth client profile (spec/oauth-client-profile.schema.json): read as YAML or JSON,
 * validated with the project's Ajv, every problem reported at once with its JSON pointer.
 */
import { packageFile } from "../../../generators/package-files.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import type { ValidateFunction } from "ajv";
import { createAjv } from "../../../generators/ajv.ts";

export type TokenFormat = "json" | "form" | "xml";

export interface Outcome {
  url?: string;
  text?: string;
}

export interface ClientProfile {
  startUrl: string;
  callbackUrl: string;
  clientId: string;
  clientSecret: string;
  authUrl: string;
  apiUrl?: string;
  success: Outcome;
  failure?: Outcome;
  tokenFormats?: Partial<Record<TokenFormat, string>>;
  pkce?: boolean;
  /**
   * The status the authorization server gives token errors, as the client expects it: 200 (the
   * reference's, D-OAUTH-TOKEN-ERROR-STATUS; default) or RFC 6749 §5.2's 400 (any 4xx).
   */
  tokenErrorStatus?: number;
}

export class ClientProfileError extends Error {
  override name = "ClientProfileError";
}

const SCHEMA = packageFile("spec", "oauth-client-profile.schema.json");
let validator: ValidateFunction | undefined;

export function checkClientProfile(value: unknown, where = "the profile"): ClientProfile {
  validator ??= createAjv([]).compile(JSON.parse(readFileSync(SCHEMA, "utf8")) as object);
  if (!validator(value)) {
    const problems = (validator.errors ?? []).map((e) => `  ${e.instancePath || "/"}: ${e.message}${e.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}`);
    throw new ClientProfileError(`${where} is not a valid OAuth client profile (spec/oauth-client-profile.schema.json):\n${problems.join("\n")}`);
  }
  const profile = value as ClientProfile;
  for (const key of ["authUrl", "apiUrl"] as const) {
    const url = profile[key] && new URL(profile[key]);
    if (url && (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname) || url.port === "" || url.protocol !== "http:")) {
      throw new ClientProfileError(`${where}: ${key} must be http://127.0.0.1:<port> (the suite listens there), got ${profile[key]}`);
    }
  }
  return profile;
}

export function loadClientProfile(file: string): ClientProfile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ClientProfileError(`cannot read the profile ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new ClientProfileError(`${file} is not YAML or JSON: ${(error as Error).message.split("\n")[0]}`);
  }
  return checkClientProfile(value, file);
}

/** A matcher against the final page: every part given must be there. */
export function matches(outcome: Outcome, page: { url: string; text: string }): boolean {
  return (outcome.url === undefined || page.url.includes(outcome.url)) && (outcome.text === undefined || page.text.includes(outcome.text));
}
