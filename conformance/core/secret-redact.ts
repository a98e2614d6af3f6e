/**
 * The profile's secrets out of everything a run reports: a case result (its message, expected and
 * actual values, notes, curl line) and a finding are made of what was sent and what the target
 * answered, and either may carry a credential — a client secret the suite sent inside an array, a
 * token a target echoes, a password in a body. curl-redact.ts knows where credentials sit in a
 * request (Basic, `client_secret`); this knows the credentials themselves, so it finds them
 * whatever their JSON type or place: every string of a result is searched for each secret as
 * written, JSON-escaped, URL-encoded, shell-quoted and inside a Basic header's base64, and each is
 * replaced by the name of the shell variable the curl lines use for it (`$CONFORMANCE_TOKEN`). In a
 * curl line the variable is spliced out of its single quotes, so the line stays runnable.
 */
import type { Profile } from "./profile.ts";
import { CLIENT_SECRET_VARIABLE, PASSWORD_VARIABLE } from "./curl-redact.ts";
import type { IssuedTokens } from "./issued-tokens.ts";

export interface Secret {
  value: string;
  /** The shell variable the reports name it by. */
  variable: string;
}

/** Shorter values are no secrets worth the name, and would wreck the text they were taken out of. */
const MIN_LENGTH = 4;

/** Header names of a trigger step whose values are credentials (an admin token, a cookie). */
const CREDENTIAL_HEADER = /authorization|token|secret|password|cookie|key|otp/i;

/** Every credential the profile holds, each with its variable; longest first. */
export function profileSecrets(profile: Profile): Secret[] {
  const found: Secret[] = [];
  const add = (value: unknown, variable: string) => {
    if (typeof value === "string" && value.length >= MIN_LENGTH && !found.some((s) => s.value === value)) found.push({ value, variable });
  };
  const nth = (base: string, i: number) => (i === 0 ? base : `${base}_${i + 1}`);
  profile.users?.forEach((u, i) => {
    add(u.password, nth(PASSWORD_VARIABLE, i));
    add(u.token, nth("CONFORMANCE_TOKEN", i));
  });
  add(profile.app?.clientSecret, CLIENT_SECRET_VARIABLE);
  add(profile.otherApp?.clientSecret, "CONFORMANCE_OTHER_CLIENT_SECRET");
  add(profile.twoFactor?.password, "CONFORMANCE_TWO_FACTOR_PASSWORD");
  add(profile.twoFactor?.totpSecret, "CONFORMANCE_TOTP_SECRET");
  let n = 0;
  for (const steps of Object.values(profile.triggers ?? {})) {
    for (const step of steps) {
      if (!("http" in step)) continue;
      for (const [name, value] of Object.entries(step.http.headers ?? {})) {
        if (CREDENTIAL_HEADER.test(name) && !found.some((s) => s.value === value)) add(value, nth("CONFORMANCE_TRIGGER_SECRET", n++));
      }
    }
  }
  for (const [name, value] of Object.entries(profile.serviceHook?.config ?? {})) if (CREDENTIAL_HEADER.test(name)) add(value, "CONFORMANCE_SERVICE_HOOK_SECRET");
  return found.sort((a, b) => b.value.length - a.value.length);
}

/** The ways a secret is written in a report: as is, JSON-escaped, URL-encoded, shell-quoted. */
function forms(secret: string): string[] {
  const all = [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2), secret.replace(/'/g, `'\\''`)];
  return [...new Set(all)];
}

/** Basic credentials of the profile, as base64: a Basic header echoed back or kept in an actual value. */
function basicForms(profile: Profile): Secret[] {
  const pairs: [string | undefined, string | undefined, string][] = [
    ...(profile.users ?? []).map((u, i) => [u.login, u.password, i === 0 ? PASSWORD_VARIABLE : `${PASSWORD_VARIABLE}_${i + 1}`] as [string, string | undefined, string]),
    [profile.app?.clientId, profile.app?.clientSecret, CLIENT_SECRET_VARIABLE],
    [profile.otherApp?.clientId, profile.otherApp?.clientSecret, "CONFORMANCE_OTHER_CLIENT_SECRET"],
    [profile.twoFactor?.login, profile.twoFactor?.password, "CONFORMANCE_TWO_FACTOR_PASSWORD"],
  ];
  return pairs.filter(([login, secret]) => login && secret && secret.length >= MIN_LENGTH).map(([login, secret, variable]) => ({ value: Buffer.from(`${login}:${secret}`).toString("base64"), variable: `BASIC_${variable}` }));
}

export type Redactor = <T>(value: T) => T;

/**
 * A function that returns a copy of any JSON-like value (a CaseResult, a Finding) with every
 * secret of `profile` replaced, in every string at any depth — and every token `issued` holds
 * when it is called (issued-tokens.ts: the run adds them as the target answers them). Strings
 * under a `curl` key are curl lines: there the variable is spliced into the shell word.
 */
export function secretRedactor(profile: Profile, issued?: IssuedTokens): Redactor {
  const secrets = profileSecrets(profile);
  const fixed = [...basicForms(profile), ...secrets].flatMap((s) => (s.variable.startsWith("BASIC_") ? [{ text: s.value, variable: s.variable.slice(6) }] : forms(s.value).map((text) => ({ text, variable: s.variable }))));
  let replacements = fixed;
  let issuedSeen = -1;
  /** The replacements, longest first, rebuilt when tokens were issued since the last call. */
  const refresh = (): void => {
    const size = issued?.size ?? 0;
    if (size === issuedSeen) return;
    issuedSeen = size;
    replacements = [...fixed, ...(issued?.list() ?? []).flatMap((s) => forms(s.value).map((text) => ({ text, variable: s.variable })))].sort((a, b) => b.text.length - a.text.length);
  };
  if (fixed.length === 0 && !issued) return (value) => value;
  const redactText = (text: string, curl: boolean): string => {
    let out = text;
    for (const { text: secret, variable } of replacements) {
      if (!out.includes(secret)) continue;
      // Inside a curl line every piece of text is single-quoted: close, the variable, reopen.
      out = out.split(secret).join(curl ? `'"$${variable}"'` : `$${variable}`);
    }
    // A secret at the edge of a word leaves an empty '' beside the variable: dropped.
    return curl && out !== text ? out.replace(/"''(?=\s|$)/g, '"').replace(/(^|\s)''"/g, '$1"') : out;
  };
  const walk = (value: unknown, key: string | undefined): unknown => {
    if (typeof value === "string") return redactText(value, key === "curl");
    // A secret sent as a number (all digits) is kept as one in an actual value.
    if (typeof value === "number" || typeof value === "bigint") {
      const text = redactText(String(value), false);
      return text === String(value) ? value : text;
    }
    if (Array.isArray(value)) return value.map((v) => walk(v, undefined));
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactText(k, false), walk(v, k)]));
    return value;
  };
  return <T>(value: T) => {
    refresh();
    return walk(value, undefined) as T;
  };
}
