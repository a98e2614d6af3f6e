/**
 * Reads a profile file (YAML or JSON — JSON is YAML, so one parser reads both), expands
 * `${ENV_VAR}` references so tokens and passwords can stay out of the file, and validates the
 * result against spec/conformance-profile.schema.json with the project's Ajv configuration.
 * Every problem comes back at once as a ProfileError with one line per error, each with its JSON
 * pointer, because a profile is usually written by hand and fixed in one go.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import type { ValidateFunction } from "ajv";
import { createAjv } from "../../generators/ajv.ts";
import { decisionRules } from "../rules/load.ts";
import type { Profile } from "../core/profile.ts";
import { valueAt } from "../core/json-pointer.ts";
import { packageFile } from "../../generators/package-files.ts";
import { OPERATION_IDS } from "../core/not-implemented.ts";

export const PROFILE_SCHEMA_PATH = packageFile("spec", "conformance-profile.schema.json");

export class ProfileError extends Error {
  override name = "ProfileError";
  constructor(
    message: string,
    readonly problems: string[] = [],
  ) {
    super(problems.length > 0 ? `${message}\n${problems.map((p) => `  ${p}`).join("\n")}` : message);
  }
}

let validator: ValidateFunction | undefined;

function validate(): ValidateFunction {
  validator ??= createAjv([]).compile(JSON.parse(readFileSync(PROFILE_SCHEMA_PATH, "utf8")) as object);
  return validator;
}

/** `${NAME}` in any string → the environment variable; a missing one is a problem to report. */
function expandEnv(value: unknown, env: NodeJS.ProcessEnv, missing: Set<string>): unknown {
  if (typeof value === "string") {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
      const v = env[name];
      if (v === undefined) missing.add(name);
      return v ?? whole;
    });
  }
  if (Array.isArray(value)) return value.map((v) => expandEnv(v, env, missing));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, env, missing)]));
  return value;
}

/** Validates an already-parsed profile; ProfileError with every problem when it does not fit. */
export function checkProfile(value: unknown, source = "profile"): Profile {
  const check = validate();
  if (!check(value)) {
    const problems = (check.errors ?? []).map((e) => {
      let hint = "";
      if ("additionalProperty" in e.params) hint = ` (${String(e.params.additionalProperty)})`;
      // An all-digit token or password reads as a number in YAML: say how to fix it.
      else if (e.keyword === "type" && e.params.type === "string" && typeof valueAt(value, e.instancePath) === "number") hint = " (YAML read a number here: quote the value)";
      return `${e.instancePath || "/"}: ${e.message ?? "is invalid"}${hint}`;
    });
    throw new ProfileError(`${source} does not match spec/conformance-profile.schema.json:`, [...new Set(problems)]);
  }
  // A decision that is no rule is a typo that would silently check what the author meant to switch off.
  const known = new Set(decisionRules().map((r) => r.id));
  const unknown = Object.keys((value as Profile).decisions ?? {}).filter((id) => !known.has(id));
  if (unknown.length > 0) throw new ProfileError(`${source}: decisions names what is no decision of spec/DECISIONS.md:`, unknown.map((id) => `/decisions/${id}`));
  // Likewise an operation that is none: the suite would go on requesting the one meant.
  const notOperations = ((value as Profile).notImplemented ?? []).flatMap((id, i) => (OPERATION_IDS.includes(id) ? [] : [`/notImplemented/${i}: ${id}`]));
  if (notOperations.length > 0) throw new ProfileError(`${source}: notImplemented names what is no operationId of spec/openapi.yaml:`, notOperations);
  return value as Profile;
}

export function loadProfile(file: string, env: NodeJS.ProcessEnv = process.env): Profile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ProfileError(`cannot read the profile ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (error) {
    throw new ProfileError(`the profile ${file} is not valid YAML or JSON: ${(error as Error).message.split("\n")[0]}`);
  }
  const missing = new Set<string>();
  const expanded = expandEnv(parsed, env, missing);
  if (missing.size > 0) throw new ProfileError(`the profile ${file} uses environment variables that are not set:`, [...missing].sort());
  return checkProfile(expanded, `the profile ${file}`);
}
