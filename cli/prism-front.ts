/**
 * The front door of `service-contract mock`: a plain HTTP forwarder on the user's port with Prism
 * behind it on a private one. It exists for the requests Prism cannot survive: Prism 5.14.2
 * decodes path parameters with `decodeURIComponent` and dies on its URIError when a path holds a
 * malformed `%` escape (`/repos/o/r%zz/events`), taking every later request with it. Such a path
 * never reaches Prism: as a proxy, it goes straight to the upstream (unvalidated, and reported as
 * unchecked); as a mock, it is answered the way the contract answers it, 400 in the error shape
 * (spec/DECISIONS.md, "A malformed `%` escape in the path"). A body Prism cannot read is kept
 * from it too: JSON that does not parse (Prism would answer it itself, in its own format,
 * `{"error":{"code":"invalid_json"}}`) and a form with a malformed `%` escape (its form decoder
 * dies on the same URIError), and JSON that is a bare falsy value (`0`: Prism never answers it):
 * as a proxy it goes to the upstream unchecked, as a mock it is
 * answered 400 `Problems parsing JSON`. A `Content-Type` that is not a media type (`text`, a
 * parameter without a value) makes Prism answer a 500 of its own: as a proxy, such a request goes
 * to the upstream unchecked; as a mock, it reaches Prism without that header (the contract ignores
 * a body where an operation takes none, and answers 415 where it takes one, as Prism does for a
 * body without a type). Everything else is forwarded to Prism byte for byte.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { errorBody } from "../reference/http/errors.ts";

/** A path (the request target before `?`) that `decodeURIComponent` refuses. */
export function malformedPath(target: string): boolean {
  const path = target.split("?", 1)[0]!;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

const MALFORMED_BODY = JSON.stringify(errorBody("Bad Request"));
const UNPARSEABLE_BODY = JSON.stringify(errorBody("Problems parsing JSON"));

/** Bodies are read whole only up to this size; a larger one goes to Prism as it comes. */
const BUFFER_LIMIT = 2 * 1024 * 1024;

/**
 * A body Prism cannot read: JSON (or no type, which the contract reads as JSON) that does not
 * parse, or a form with a malformed `%` escape (Prism's form decoder dies on it, as on a path).
 */
function unreadableBody(contentType: string | undefined, body: Buffer): boolean {
  const type = String(contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (body.length === 0) return false;
  if (type === "application/x-www-form-urlencoded") {
    try {
      for (const pair of body.toString("latin1").split("&")) for (const part of pair.split("=")) decodeURIComponent(part.replace(/\+/g, " "));
      return false;
    } catch {
      return true;
    }
  }
  if (type !== "" && type !== "application/json" && !type.endsWith("+json")) return false;
  try {
    // Prism also never answers a body that parses to a falsy value (`0`, `false`, `null`, `""`).
    return !JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    return true;
  }
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
/** RFC 9110's media-type: type "/" subtype *( ";" parameter ), a parameter's value a token or a quoted string. */
const MEDIA_TYPE = new RegExp(`^\\s*${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"([^"\\\\]|\\\\.)*"))*\\s*;?\\s*$`);

/** A `Content-Type` header that is there and is not a media type (Prism's parser throws on it). */
export function malformedContentType(value: string | undefined): boolean {
  return value !== undefined && !MEDIA_TYPE.test(value);
}

/** The whole body when it is small enough to check, else undefined (and nothing consumed). */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const length = Number(req.headers["content-length"] ?? NaN);
  if (!(length > 0) || length > BUFFER_LIMIT) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export interface FrontOptions {
  host: string;
  port: number;
  /** Prism's own address. */
  prism: string;
  /** The implementation behind the proxy; absent for the mock. */
  upstream?: string;
  /** Told of each request that went around Prism. */
  onUnchecked(request: string): void;
}

function forward(req: IncomingMessage, res: ServerResponse, base: string, body?: Buffer): void {
  const target = new URL(base);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const prefix = target.pathname.replace(/\/$/, "");
  const headers = { ...req.headers };
  const out = send(
    { protocol: target.protocol, hostname: target.hostname, port: target.port, method: req.method, path: prefix + req.url, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    },
  );
  out.on("error", () => {
    if (res.headersSent) return void res.destroy();
    const body = JSON.stringify(errorBody("Bad Gateway"));
    res.writeHead(502, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  if (body) out.end(body);
  else req.pipe(out);
}

export async function startFront(options: FrontOptions): Promise<{ url: string; server: Server }> {
  const refuse = (res: ServerResponse, body: string): void => {
    res.writeHead(400, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
    res.end(body);
  };
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (malformedPath(url)) {
      options.onUnchecked(`${req.method} ${url}`);
      if (options.upstream) return forward(req, res, options.upstream);
      req.resume();
      return refuse(res, MALFORMED_BODY);
    }
    if (malformedContentType(req.headers["content-type"])) {
      options.onUnchecked(`${req.method} ${url} (Content-Type is not a media type)`);
      if (options.upstream) return forward(req, res, options.upstream);
      delete req.headers["content-type"];
      return forward(req, res, options.prism);
    }
    readBody(req).then(
      (body) => {
        if (!body || !unreadableBody(req.headers["content-type"], body)) return forward(req, res, options.prism, body);
        options.onUnchecked(`${req.method} ${url} (a body that does not parse)`);
        if (options.upstream) return forward(req, res, options.upstream, body);
        refuse(res, UNPARSEABLE_BODY);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return { url: `http://${host}:${port}`, server };
}
