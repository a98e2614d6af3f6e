/**
 * Tokens the target issues to the suite during a run — an OAuth access token from the token
 * exchange, a personal token of the non-web flow, a reset token — act for the profile's users as
 * much as the profile's own token does, and one whose revocation failed still works. A report is
 * shared and archived, so they leave no result either: each is kept here as the target answers it
 * and the run's redactor (secret-redact.ts) replaces it everywhere, as `$CONFORMANCE_RUN_TOKEN_<n>`.
 *
 * Only answers of the operations that issue tokens are read (the token exchange on the web host,
 * `/authorizations…`, `/applications/…`), and only values long enough to be a credential: a
 * target's answer is hostile input, and a short common word taken for a token would be blotted out
 * of every report. Tokens the suite makes up to see them refused are never issued, so their curl
 * lines stay as sent.
 */

/** The shortest value taken for an issued token (the reference's are 40 hex characters). */
const MIN_LENGTH = 16;
/** The longest; a longer value is no token, and a bound keeps the patterns below linear. */
const MAX_LENGTH = 512;
/** The most tokens one run keeps: a target answering a new token to every request cannot grow the list without bound. */
const MAX_TOKENS = 1000;

const ISSUING_PATH = /\/(login\/oauth\/access_token|authorizations|applications)(\/|$)/;
const TOKEN = `([A-Za-z0-9._~+/=-]{${MIN_LENGTH},${MAX_LENGTH}})`;
/** JSON (`"access_token"`/`"token"`), form (`access_token=`) and XML (`<access_token>`). */
const PATTERNS = [new RegExp(`"(?:access_token|token)"\\s*:\\s*"${TOKEN}"`, "g"), new RegExp(`(?:^|&)access_token=${TOKEN}(?=&|$)`, "g"), new RegExp(`<access_token>${TOKEN}</access_token>`, "g")];

export const RUN_TOKEN_VARIABLE = "CONFORMANCE_RUN_TOKEN";

export class IssuedTokens {
  private readonly values: string[] = [];

  /** `known`: the profile's own secrets, redacted under their own names. */
  constructor(private readonly known: ReadonlySet<string> = new Set()) {}

  /** Changes whenever a token is added: the redactor rebuilds its replacements then. */
  get size(): number {
    return this.values.length;
  }

  /** The tokens an answer at `url` issues, kept. */
  fromAnswer(url: string, text: string): void {
    let path: string;
    try {
      path = new URL(url).pathname;
    } catch {
      return;
    }
    if (!ISSUING_PATH.test(path) || text.length === 0) return;
    for (const pattern of PATTERNS) for (const m of text.matchAll(pattern)) this.add(m[1]!);
  }

  add(value: string): void {
    if (value.length < MIN_LENGTH || this.known.has(value) || this.values.includes(value) || this.values.length >= MAX_TOKENS) return;
    this.values.push(value);
  }

  /** Each token with the shell variable the reports name it by, in the order they were issued. */
  list(): { value: string; variable: string }[] {
    return this.values.map((value, i) => ({ value, variable: `${RUN_TOKEN_VARIABLE}_${i + 1}` }));
  }
}
