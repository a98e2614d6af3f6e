/**
 * The operation-independent half of the generated ServiceClient: feed polling, `Link`
 * pagination and the OAuth web flow, typed against the generated operation map. The generated
 * class extends this and only adds one thin method per operationId.
 */
import { BaseClient } from "./base-client.ts";
import { RequestError } from "./errors.ts";
import { paginate, paginateItems } from "./paginate.ts";
import { poll, type EventsCallback, type PollOptions } from "./poll.ts";
import {
  ACCEPT_BY_FORMAT,
  ACCESS_TOKEN_PATH,
  authorizeUrl,
  checkState,
  interpretTokenResponse,
  type AccessToken,
  type AuthorizeUrl,
  type AuthorizeUrlInput,
  type TokenFormat,
} from "./oauth.ts";
import type { ApiResponse, CallOptions, ClientOptions, OperationTable, RequestParts } from "./types.ts";

/** Request and response type of one operation, as the generated map declares them. */
export interface OperationTypes {
  request: unknown;
  response: ApiResponse<number, unknown, unknown>;
}

/** The 200 branch of a response union. */
export type OkResponse<R> = Extract<R, { status: 200 }>;
/** The element type of a list operation's 200 body. */
export type ItemOf<R> = OkResponse<R> extends { body: readonly (infer I)[] } ? I : never;

/** A generated method, for the `client.poll(client.listRepoEvents, …)` form. */
export type OperationMethod<Req, R> = ((request: Req, options?: CallOptions) => Promise<R>) & { readonly operationId?: string };

export interface ExchangeCodeInput {
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri?: string;
  /** The PKCE verifier from `authorizeUrl({ pkce: true })`. */
  codeVerifier?: string;
  /** The response format to ask for with `Accept`. Default "json". */
  format?: TokenFormat;
  signal?: AbortSignal;
}

export class ServiceClientCore<Ops extends { [K in keyof Ops]: OperationTypes }, PageableId extends keyof Ops & string, PollableId extends keyof Ops & string> extends BaseClient {
  constructor(table: OperationTable, options: ClientOptions) {
    super(table, options);
  }

  /** The operationId of a generated method (bound or not), or the id itself. */
  protected operationIdOf(op: string | ((...args: never[]) => unknown)): string {
    if (typeof op === "string") return op;
    const id = (op as { operationId?: unknown }).operationId ?? op.name.replace(/^bound /, "");
    if (typeof id !== "string" || typeof (this as unknown as Record<string, unknown>)[id] !== "function") {
      throw new RequestError("expected an operationId or a method of this client");
    }
    this.operation(id);
    return id;
  }

  /** Pages of a list operation, following `Link: rel="next"` until there is none. */
  paginate<K extends PageableId>(operationId: K, request: Ops[K]["request"], options?: CallOptions): AsyncGenerator<OkResponse<Ops[K]["response"]>>;
  paginate<Req, R>(method: OperationMethod<Req, R>, request: Req, options?: CallOptions): AsyncGenerator<OkResponse<R>>;
  paginate(op: string | OperationMethod<unknown, unknown>, request: unknown, options?: CallOptions): AsyncGenerator<unknown> {
    return paginate(this, this.operationIdOf(op), (request ?? {}) as RequestParts, options);
  }

  /** Every item of every page, in order. */
  items<K extends PageableId>(operationId: K, request: Ops[K]["request"], options?: CallOptions): AsyncGenerator<ItemOf<Ops[K]["response"]>>;
  items<Req, R>(method: OperationMethod<Req, R>, request: Req, options?: CallOptions): AsyncGenerator<ItemOf<R>>;
  items(op: string | OperationMethod<unknown, unknown>, request: unknown, options?: CallOptions): AsyncGenerator<unknown> {
    return paginateItems(this, this.operationIdOf(op), (request ?? {}) as RequestParts, options);
  }

  /**
   * Poll a feed until `options.signal` aborts, handing only new events to `onEvents`. Obeys
   * `X-Poll-Interval`; a 304 means nothing new.
   */
  poll<K extends PollableId>(operationId: K, request: Ops[K]["request"], onEvents: EventsCallback<ItemOf<Ops[K]["response"]>>, options?: PollOptions): Promise<void>;
  poll<Req, R>(method: OperationMethod<Req, R>, request: Req, onEvents: EventsCallback<ItemOf<R>>, options?: PollOptions): Promise<void>;
  poll(op: string | OperationMethod<unknown, unknown>, request: unknown, onEvents: EventsCallback<never>, options?: PollOptions): Promise<void> {
    return poll(this, this.operationIdOf(op), (request ?? {}) as RequestParts, onEvents, options);
  }

  /** The URL to send the user to, and the `state` to keep for checkState. */
  authorizeUrl(input: AuthorizeUrlInput): AuthorizeUrl {
    return authorizeUrl(this.authUrl, input);
  }

  /** Throws OAuthStateError (abort the flow) unless the callback's state is the one issued. */
  checkState(expected: string | null | undefined, received: string | null | undefined): void {
    checkState(expected, received);
  }

  /** Exchange the callback's code for a token. Token-endpoint errors throw TokenExchangeError. */
  async exchangeCode(input: ExchangeCodeInput): Promise<AccessToken> {
    const operationId = this.#tokenOperation();
    const body: Record<string, string> = { client_id: input.clientId, client_secret: input.clientSecret, code: input.code };
    if (input.redirectUri !== undefined) body.redirect_uri = input.redirectUri;
    if (input.codeVerifier !== undefined) body.code_verifier = input.codeVerifier;
    const response = await this.call(
      operationId,
      { body, mediaType: "application/x-www-form-urlencoded" },
      { headers: { accept: ACCEPT_BY_FORMAT[input.format ?? "json"] }, signal: input.signal },
    );
    return interpretTokenResponse(response.status, response.body);
  }

  #tokenOperation(): string {
    for (const id of this.operationIds()) {
      const meta = this.operation(id);
      if (meta.host === "auth" && meta.method === "POST" && meta.path === ACCESS_TOKEN_PATH) return id;
    }
    throw new RequestError(`the contract has no POST ${ACCESS_TOKEN_PATH} operation on the web host`);
  }
}
