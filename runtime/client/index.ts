/**
 * The hand-written runtime of the generated client (`generated/client/`). Generated code holds
 * only what differs per operation — the metadata table, the typed request/response unions and
 * one thin method per operationId — and imports everything else from here: the request
 * pipeline (auth, two-factor retry, ETag cache, rate-limit wait), pagination, polling, the OAuth
 * web flow and the webhook receiver. Each piece is a small module with its own unit tests.
 */
export { BaseClient } from "./base-client.ts";
export { ServiceClientCore, type ExchangeCodeInput, type ItemOf, type OkResponse, type OperationMethod, type OperationTypes } from "./service-client.ts";
export { systemClock, type Clock } from "./clock.ts";
export { MemoryEtagStore, type EtagEntry, type EtagStore } from "./etag-cache.ts";
export { RequestError, ResponseError } from "./errors.ts";
export { parseLinkHeader } from "./link-header.ts";
export { readRateLimit, isRateLimited, waitForReset, type RateLimitState } from "./rate-limit.ts";
export { applyAuth, otpChallenge, credentialKey } from "./auth.ts";
export { bareMediaType, buildUrl, decodeBody, decodeHeaders, encodeBody, expandPath, joinUrl, responseKey } from "./http.ts";
export { paginate, paginateItems } from "./paginate.ts";
export { poll, type EventsCallback, type PollOptions } from "./poll.ts";
export {
  authorizeUrl,
  checkState,
  codeChallenge,
  randomCodeVerifier,
  interpretTokenResponse,
  randomState,
  OAuthStateError,
  TokenExchangeError,
  type AccessToken,
  type AuthorizeUrl,
  type AuthorizeUrlInput,
  type TokenErrorCode,
  type TokenFormat,
} from "./oauth.ts";
export { sign, verifySignatures, SIGNATURE_HEADERS, type SignatureAlgorithm, type SignatureCheck } from "./webhooks/signature.ts";
export { WebhookReceiver, type WebhookContract, type WebhookDelivery, type WebhookHandler, type WebhookInput, type WebhookOutcome, type WebhookReceiverOptions } from "./webhooks/receiver.ts";
export { webhookHandler, MAX_DELIVERY_BYTES, type NodeHandlerOptions } from "./webhooks/node-adapter.ts";
export type { ApiResponse, Auth, CallOptions, ClientOptions, HeaderKind, HttpMethod, NotModified, OperationMeta, OperationTable, OtpRequest, RateLimitOptions, Reply, RequestParts, ResponseMeta } from "./types.ts";
