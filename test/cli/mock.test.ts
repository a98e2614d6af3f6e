/**
 * `service-contract mock` runs Prism for real: the mock answers feed requests from the
 * contract, and the proxy, put in front of a deliberately wrong implementation, reports each
 * violation and exits 1 when stopped. Stopping the command must stop Prism with it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliBin, repoRoot, runCliInProcess } from "./run-cli.ts";
import { ceiling } from "../ceilings.ts";

interface Running {
  child: ChildProcessWithoutNullStreams;
  ready: Record<string, string>;
  lines: string[];
  exited: Promise<number | null>;
}

/** Bundling the spec and starting Prism takes seconds alone and much longer on a busy CI machine. */
const PRISM_TIMEOUT = ceiling(45_000);

const running: Running[] = [];
const servers: Server[] = [];
/** Started once for several tests (see "a mock and a proxy shared"); stopped after the file. */
const shared: Running[] = [];
const sharedServers: Server[] = [];

/** SIGTERM lets the command stop its Prism child (SIGKILL would orphan Prism on its port); SIGKILL only if it does not exit in time. */
async function stopAll(list: Running[], servers: Server[]): Promise<void> {
  await Promise.all(
    list.splice(0).map(async (r) => {
      if (r.child.exitCode !== null || r.child.signalCode !== null) return;
      r.child.kill("SIGTERM");
      const timer = setTimeout(() => r.child.kill("SIGKILL"), 10_000);
      await r.exited;
      clearTimeout(timer);
    }),
  );
  await Promise.all(servers.splice(0).map((s) => new Promise((res) => s.close(res))));
}
// A test that passed has already stopped its own.
afterEach(() => stopAll(running, servers));
afterAll(() => stopAll(shared, sharedServers));

async function start(args: string[], list: Running[] = running): Promise<Running> {
  const child = spawn(process.execPath, [cliBin, ...args], { cwd: repoRoot });
  const lines: string[] = [];
  const exited = new Promise<number | null>((res) => child.on("exit", (code) => res(code)));
  const ready = await new Promise<Record<string, string>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line; got:\n${lines.join("\n")}`)), ceiling(60_000));
    createInterface({ input: child.stdout }).on("line", (line) => {
      lines.push(line);
      if (line.startsWith("{")) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as Record<string, string>);
      }
    });
    createInterface({ input: child.stderr }).on("line", (line) => lines.push(line));
    void exited.then((code) => reject(new Error(`exited ${code} before ready:\n${lines.join("\n")}`)));
  });
  const r = { child, ready, lines, exited };
  list.push(r);
  return r;
}

describe("service-contract mock", () => {
  // Prism takes seconds of CPU to start: one mock and one proxy serve the tests that only send
  // requests; the last two stop them (the proxy with SIGINT, the mock with SIGTERM: the command's
  // one stop path) and check how they end (exit 0, the proxy's summary over everything it was
  // sent, nothing listening any more). A proxy that must exit 1 has its own.
  describe("a mock and a proxy shared by the tests that only send requests", () => {
    let mock: Running;
    let proxy: Running;
    /** Every path the proxy's upstream saw. */
    const seen: string[] = [];

    beforeAll(async () => {
      // A correct implementation of the token exchange (XML, JSON or form, as Accept asks); any
      // other path is a 404 in the contract's error shape.
      const token = { error: "incorrect_client_credentials", error_description: "The client_id and/or client_secret passed are incorrect.", error_uri: "https://developer.service.example/v3/oauth/#incorrect-client-credentials" };
      const upstream = createServer((req, res) => {
        seen.push(req.url ?? "");
        if (req.url === "/login/oauth/access_token") {
          const accept = req.headers.accept ?? "";
          if (accept.includes("xml")) {
            res.writeHead(200, { "content-type": "application/xml; charset=utf-8" });
            res.end(`<?xml version="1.0" encoding="UTF-8"?><OAuth>${Object.entries(token).map(([k, v]) => `<${k}>${v}</${k}>`).join("")}</OAuth>`);
          } else if (accept.includes("json")) {
            res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
            res.end(JSON.stringify(token));
          } else {
            res.writeHead(200, { "content-type": "application/x-www-form-urlencoded" });
            res.end(new URLSearchParams(token).toString());
          }
          return;
        }
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "Not Found", documentation_url: "https://service.example/docs" }));
      });
      sharedServers.push(upstream);
      await new Promise<void>((res) => upstream.listen(0, "127.0.0.1", res));
      const port = (upstream.address() as AddressInfo).port;
      [mock, proxy] = await Promise.all([start(["mock", "--port", "0"], shared), start(["mock", "--port", "0", "--proxy", `http://127.0.0.1:${port}`], shared)]);
    }, PRISM_TIMEOUT);

    it("answers the token exchange in the format Accept asks for, with the contract's wire examples", async () => {
      const before = mock.lines.length;
      const exchange = async (accept?: string): Promise<Response> =>
        fetch(`${mock.ready.mock}/login/oauth/access_token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...(accept ? { accept } : {}) },
          body: "client_id=a&client_secret=b&code=c",
        });
      const xml = await exchange("application/xml");
      expect(xml.headers.get("content-type")).toMatch(/^application\/xml/);
      expect(await xml.text()).toMatch(/^<OAuth><token_type>bearer<\/token_type><scope>[^<]*<\/scope><access_token>\w+<\/access_token><\/OAuth>$/);
      const form = await exchange();
      expect(form.headers.get("content-type")).toMatch(/^application\/x-www-form-urlencoded/);
      expect(Object.fromEntries(new URLSearchParams(await form.text()))).toMatchObject({ token_type: "bearer" });
      const json = await exchange("application/json");
      expect(await json.json()).toMatchObject({ token_type: "bearer" });
      await new Promise((res) => setTimeout(res, 300));
      // The mock's own answers conform: no violation reported for any of the three formats.
      expect(mock.lines.slice(before).filter((l) => l.startsWith("violation"))).toEqual([]);
    }, PRISM_TIMEOUT);

    it("as a proxy, passes a correct implementation's XML, form and JSON token answers with no violation", async () => {
      const before = proxy.lines.length;
      for (const accept of ["application/xml", "application/json", undefined]) {
        const response = await fetch(`${proxy.ready.proxy}/login/oauth/access_token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...(accept ? { accept } : {}) },
          body: "client_id=a&client_secret=b&code=c",
        });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
      expect(seen.filter((url) => url === "/login/oauth/access_token")).toHaveLength(3);
      await new Promise((res) => setTimeout(res, 500));
      expect(proxy.lines.slice(before).filter((l) => l.startsWith("violation"))).toEqual([]);
      // Its exit code and summary line: checked when the last test below stops it.
    }, PRISM_TIMEOUT);

    it("survives a malformed % escape in a path (Prism 5.14.2 dies on it) and keeps unparseable JSON and a Content-Type that is no media type from Prism: the proxy passes them through, the mock answers them itself or without that header", async () => {
      const from = seen.length;
      for (const path of ["/repos/octocat/hello%zz/events", "/repos/octocat/hello-world/issues/%E0%A4%A/events"]) {
        const passed = await fetch(`${proxy.ready.proxy}${path}`);
        expect(passed.status).toBe(404);
        await passed.arrayBuffer();
        const mocked = await fetch(`${mock.ready.mock}${path}`);
        expect(mocked.status).toBe(400);
        expect(await mocked.json()).toEqual({ message: "Bad Request", documentation_url: expect.any(String) });
      }
      // A JSON body that does not parse: Prism would answer it itself, in its own format.
      const post = (base: string) => fetch(`${base}/repos/octocat/hello-world/hooks`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"name":"web",,}' });
      const passedBody = await post(proxy.ready.proxy!);
      expect(passedBody.status).toBe(404);
      await passedBody.arrayBuffer();
      const mockedBody = await post(mock.ready.mock!);
      expect(mockedBody.status).toBe(400);
      expect(await mockedBody.json()).toEqual({ message: "Problems parsing JSON", documentation_url: expect.any(String) });
      // A Content-Type that is not a media type: Prism answers a 500 of its own to it.
      const ping = (base: string) => fetch(`${base}/repos/octocat/hello-world/hooks/1/pings`, { method: "POST", headers: { "content-type": "text" }, body: "not a media type" });
      const passedPing = await ping(proxy.ready.proxy!);
      expect(passedPing.status).toBe(404);
      await passedPing.arrayBuffer();
      const mockedPing = await ping(mock.ready.mock!);
      expect(mockedPing.status, await mockedPing.text()).toBeLessThan(500);
      expect(seen.slice(from)).toEqual(["/repos/octocat/hello%zz/events", "/repos/octocat/hello-world/issues/%E0%A4%A/events", "/repos/octocat/hello-world/hooks", "/repos/octocat/hello-world/hooks/1/pings"]);
      expect(proxy.lines.filter((l) => l.startsWith("unchecked GET /repos/octocat/hello%zz/events"))).toHaveLength(1);
      expect(proxy.lines.filter((l) => l.startsWith("unchecked POST /repos/octocat/hello-world/hooks/1/pings (Content-Type is not a media type)"))).toHaveLength(1);
    }, PRISM_TIMEOUT);

    it("stops Prism on Ctrl-C (SIGINT) as well (the proxy: the same stop as the mock's; its summary: 0 violations over all the above)", async () => {
      const response = await fetch(`${mock.ready.mock}/events/nonexistent-path`);
      expect(response.status).toBe(404);
      await response.arrayBuffer();
      proxy.child.kill("SIGINT");
      expect(await proxy.exited, proxy.lines.join("\n")).toBe(0);
      // The token answers and the two paths Prism cannot read are not counted as requests.
      expect(proxy.lines.at(-1)).toBe("0 violation(s) in 0 request(s)");
      await expect(fetch(`${proxy.ready.proxy}/events`)).rejects.toThrow();
    }, PRISM_TIMEOUT);

    it("serves the feeds from the contract and stops cleanly on SIGTERM", async () => {
      const response = await fetch(`${mock.ready.mock}/events`);
      expect(response.status).toBe(200);
      expect(Array.isArray(await response.json())).toBe(true);
      mock.child.kill("SIGTERM");
      expect(await mock.exited, mock.lines.join("\n")).toBe(0);
      // Prism went with it: nothing answers on its port any more.
      await expect(fetch(`${mock.ready.mock}/events`)).rejects.toThrow();
    }, PRISM_TIMEOUT);
  });

  it("as a proxy, reports every violation of a wrong implementation and exits 1", async () => {
    // An implementation that gets the feed wrong: ids as numbers, no ETag, no rate-limit headers.
    const upstream = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify([{ id: 1, type: "PushEvent" }]));
    });
    servers.push(upstream);
    await new Promise<void>((res) => upstream.listen(0, "127.0.0.1", res));
    const port = (upstream.address() as AddressInfo).port;

    const proxy = await start(["mock", "--port", "0", "--proxy", `http://127.0.0.1:${port}`]);
    expect(proxy.ready.upstream).toBe(`http://127.0.0.1:${port}`);
    const response = await fetch(`${proxy.ready.proxy}/events`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await new Promise((res) => setTimeout(res, 500));
    proxy.child.kill("SIGTERM");
    expect(await proxy.exited).toBe(1);
    const violations = proxy.lines.filter((l) => l.startsWith("violation GET /events"));
    expect(violations.some((l) => /response\.body/.test(l))).toBe(true);
    expect(violations.some((l) => /response\.header/.test(l))).toBe(true);
    expect(proxy.lines.at(-1)).toMatch(/^\d+ violation\(s\) in 1 request\(s\)$/);
  }, PRISM_TIMEOUT);

  it.each([
    ["a proxy target that is not a URL", ["--proxy", "not a url"]],
    ["a port that is not a number", ["--port", "forty"]],
    ["a spec file that does not exist", ["--spec", "no/such/openapi.yaml"]],
  ])("rejects %s with exit 2", async (what, args) => {
    // The binary for the first case; `main` in process for the others (same exit-2 path).
    let code: number | null;
    let stderr = "";
    if (what === "a proxy target that is not a URL") {
      const child = spawn(process.execPath, [cliBin, "mock", ...args], { cwd: repoRoot });
      child.stderr.on("data", (d: Buffer) => (stderr += d));
      code = await new Promise<number | null>((res) => child.on("exit", res));
    } else {
      ({ code, stderr } = await runCliInProcess(["mock", ...args]));
    }
    expect(code).toBe(2);
    expect(stderr).toMatch(/^service-contract: /m);
  });
});
