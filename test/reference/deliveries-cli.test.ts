/**
 * The "done when", through the real command line: with `serve --seed demo --simulate`
 * running, a hook created against a local receiver gets a signed ping, then a signed push after
 * `service-contract simulate push --url …`. And `simulate` straight on the data folder (no
 * server running) enqueues the deliveries too: the server sends them when it starts. The server
 * runs through the CLI's `main` in this process (serve-child.ts's startServeInProcess: the same
 * command and options, without two more starts of Node and a PGlite); `simulate` is the binary.
 * A serve child's own process — a kill, a restart on its folder — is deliveries-crash's subject.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createWebhookReceiver } from "../../generated/client/webhooks.ts";
import { runCli } from "../cli/run-cli.ts";
import { ADMIN_TOKEN, createHook } from "./deliveries-fixtures.ts";
import { startServeInProcess, tokenThroughApi, type ServeInProcess } from "./serve-child.ts";
import { startReceiver } from "./webhook-receiver.ts";
import { ceiling } from "../ceilings.ts";

const SECRET = "cli-test-secret";
const scratch = mkdtempSync(join(tmpdir(), "deliveries-cli-"));
const servers: ServeInProcess[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("deliveries from the command line", () => {
  it("serve: a signed ping on creation, a signed push after `simulate push --url`; simulate on the folder enqueues for the next serve", async () => {
    const dataDir = join(scratch, "db");
    const receiver = await startReceiver();
    const verify = createWebhookReceiver({ secret: SECRET }).onAny(() => {});
    try {
      const serve = await startServeInProcess({ dataDir }, {});
      servers.push(serve);
      const token = await tokenThroughApi(serve.api, ["admin:repo_hook"]);
      await createHook(serve.api, token, "repos/octocat/hello-world", { config: { url: receiver.url, secret: SECRET }, events: ["push"] });
      await receiver.until((r) => r.length >= 1);
      const viaUrl = await runCli(["simulate", "push", "--url", serve.api, "--admin-token", ADMIN_TOKEN, "message=through the server"]);
      expect(viaUrl.code, viaUrl.stderr).toBe(0);
      await receiver.until((r) => r.length >= 2);
      expect(receiver.received.map((r) => r.event)).toEqual(["ping", "push"]);
      for (const r of receiver.received) {
        expect(r.headers["x-hub-signature-256"]).toBe(`sha256=${createHmac("sha256", SECRET).update(r.body).digest("hex")}`);
        expect((await verify.receive({ body: r.body, headers: r.headers })).status).toBe(200);
      }
      expect(JSON.parse(receiver.received[1]!.body.toString("utf8")).head_commit.message).toBe("through the server");
      expect(await serve.stop()).toBe(0);

      const direct = await runCli(["simulate", "push", "--data-dir", dataDir, "message=straight on the folder"]);
      expect(direct.code, direct.stderr).toBe(0);
      expect(receiver.received).toHaveLength(2);
      const again = await startServeInProcess({ dataDir }, {});
      servers.push(again);
      await receiver.until((r) => r.length >= 3);
      const push = receiver.received[2]!;
      expect(push.event).toBe("push");
      expect(JSON.parse(push.body.toString("utf8")).head_commit.message).toBe("straight on the folder");
      expect((await verify.receive({ body: push.body, headers: push.headers })).status).toBe(200);
    } finally {
      await receiver.close();
    }
  }, ceiling(120_000));
});
