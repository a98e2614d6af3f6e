/**
 * The profile: what the suite may use on the target. Its JSON Schema is
 * spec/conformance-profile.schema.json (the documented format; conformance/README.md explains
 * each field). Everything is optional except the first user: cases whose needs a profile does not
 * meet are skipped with the reason.
 */
import type { DecisionSetting } from "./decisions.ts";

export interface ProfileUser {
  login: string;
  /** For Basic-auth cases and for the authorize page's login form. */
  password?: string;
  /** An OAuth token of this user. users[0]'s should carry `repo`, `admin:repo_hook`, `admin:org_hook`, `user`. */
  token?: string;
}

export interface ProfileApp {
  clientId: string;
  clientSecret: string;
  /** The registered callback URL (redirect_uri cases are built on it). */
  callbackUrl: string;
}

/** A second registered OAuth application (it may be suspended), for the application-endpoint cases. */
export interface ProfileOtherApp {
  clientId: string;
  clientSecret: string;
}

/** A user with two-factor authentication by an authenticator app, and its TOTP secret (RFC 6238). */
export interface ProfileTwoFactorUser {
  login: string;
  password: string;
  /** Base32, as an authenticator app is given it. */
  totpSecret: string;
  /** Default 6. */
  digits?: number;
  /** Seconds per code; default 30. */
  period?: number;
  /** Default SHA1. */
  algorithm?: "SHA1" | "SHA256" | "SHA512";
}

/** Where users[0] may install a service hook: a repository it administers, a catalog service other than web, a config it accepts. */
export interface ProfileServiceHook {
  repo: string;
  name: string;
  config: Record<string, string>;
}

/** One way to make an event happen on the target. `{param}` in strings is replaced from the case's params. */
/** JSON pointers into a step's answer naming what it made (run/trigger-made.ts). */
export type TriggerMadePointers = { repository?: string; issue?: string; hook?: string };

export type TriggerStep =
  | { http: { method: string; url: string; headers?: Record<string, string>; body?: unknown; made?: TriggerMadePointers } }
  | { command: string[]; made?: TriggerMadePointers };

export interface AuthorizeDriver {
  /** `form`: plain HTTP, following the login and consent forms; `browser`: playwright-core + Chromium. */
  driver: "form" | "browser";
  /** CSS selectors (browser) or field names (form) for the login and consent pages. */
  login?: { username: string; password: string; submit?: string };
  consent?: { approve: string; deny?: string };
  /** Browser only: the Chromium binary (default /usr/bin/chromium). */
  executablePath?: string;
  /**
   * Origins (`https://idp.example`) besides the target's two that may receive the profile's
   * secrets during sign-in — an identity provider. Named, never implied (credentials-home.ts).
   */
  allowOrigins?: string[];
}

export interface Profile {
  /** users[0]: the main user; users[1]: another user without access to the private repository. */
  users: ProfileUser[];
  app?: ProfileApp;
  /** A second OAuth application (may be suspended): app A's credentials on a path naming it are refused. */
  otherApp?: ProfileOtherApp;
  /** A user with two-factor on and how to compute its codes; not users[0] or [1] (the case uses up codes and makes failed attempts). */
  twoFactor?: ProfileTwoFactorUser;
  org?: string;
  repos?: { public?: string; private?: string };
  /** Where a service hook may be installed, and which (the service-hook cases). */
  serviceHook?: ProfileServiceHook;
  /** An issue number in the public repository. */
  issue?: number;
  authorize?: AuthorizeDriver;
  /** Per webhook event name (push, issues, …), the steps that make it happen on the public repository. */
  triggers?: Record<string, TriggerStep[]>;
  /**
   * Per event, default parameters for its trigger steps (the case's own parameters win). Values
   * may use the built-in placeholders, e.g. `{ ref: "conformance-{nonce}" }`.
   */
  triggerParams?: Record<string, Record<string, string>>;
  /** How long to wait for a webhook delivery (default 10000 ms). */
  deliveryTimeoutMs?: number;
  /** What the suite lets the target make it do (the CLI's --max-response-bytes wins). */
  limits?: { maxResponseBytes?: number };
  /** PKCE (RFC 7636, S256) beyond the seed; false skips the OAUTH-PKCE cases. Default true. */
  pkce?: boolean;
  /**
   * The contract's choices (`D-` rules of spec/DECISIONS.md) this target made otherwise: `off`
   * (only the seed's part of that behaviour is checked) or, for a few, the value it chose
   * (conformance/core/decisions.ts). Unlisted decisions are checked as the contract states them.
   */
  decisions?: Record<string, DecisionSetting>;
  /**
   * Operations (operationIds of spec/openapi.yaml) the target does not serve yet. The suite never
   * requests them: a case that needs one is skipped, saying so (core/not-implemented.ts).
   */
  notImplemented?: string[];
}
