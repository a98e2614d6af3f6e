/**
 * Runtime of the generated server stubs (`generated/server/`): the hand-written, operation-
 * independent part. The generated `registerRoutes` passes its route table and the generated
 * validators to `registerRouteTable`; the generated handler types are built on `Handler` and
 * `HandlerResult`. Applications import the generated module for their routes, and this one
 * (`service-contract/runtime/server`) for the helpers a handler needs: the contract's error
 * bodies (`errorBody`, `validationFailed`) and its rate limit (`rateLimit`).
 */
export { registerRouteTable, type RouteTable, type RuntimeOptions, type ValidateRequest } from "./register.ts";
export type { ValidateResponse } from "./respond.ts";
export { DEFAULT_DOCUMENTATION_URL, errorBody, validationFailed } from "./errors.ts";
export { RATE_LIMIT_HEADERS, RATE_LIMIT_WINDOW_MS, rateLimit, type RateLimitCounters, type RateLimitHeader, type RateLimitOptions, type RateState } from "./rate-limit.ts";
export type {
  ErrorBody,
  ExtraHeaders,
  Handler,
  HandlerResult,
  HeaderValue,
  Host,
  HttpMethod,
  RawRequest,
  RegisterOptions,
  RequestBase,
  RequestFailure,
  ResponseSpec,
  ResponseValidationFailure,
  RouteSpec,
  ValidationErrorItem,
} from "./types.ts";
