/**
 * Runtime of the generated server stubs (`generated/server/`): the hand-written, operation-
 * independent part. The generated `registerRoutes` passes its route table and the generated
 * validators to `registerRouteTable`; the generated handler types are built on `Handler` and
 * `HandlerResult`. Applications import the generated module, not this one.
 */
export { registerRouteTable, type RouteTable, type RuntimeOptions, type ValidateRequest } from "./register.ts";
export type { ValidateResponse } from "./respond.ts";
export { DEFAULT_DOCUMENTATION_URL } from "./errors.ts";
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
