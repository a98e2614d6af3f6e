/**
 * `lint` on a stranger's contract (issue 41): the `redocly.yaml` that came with the spec is never
 * used (its `plugins:` are code: on the code before, `lint --spec DIR/openapi.yaml` ran a plugin
 * from DIR), and a `$ref` to a URL is refused with exit 2 and one line before Redocly starts (it
 * fetched `http://127.0.0.1:…` before). Redocly runs as a process: an integration test.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliInProcess } from "./in-process.ts";
import { ceiling } from "../ceilings.ts";

const scratch = mkdtempSync(join(tmpdir(), "stranger-lint-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const LINT_TIMEOUT = ceiling(120_000);
const SPEC = 'openapi: 3.1.0\ninfo: {title: t, version: "1", license: {name: MIT, identifier: MIT}}\nservers: [{url: "https://example.com"}]\nsecurity: []\npaths:\n  /x:\n    get:\n      operationId: getX\n      summary: x\n      description: x\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: SCHEMA\n';

function contract(name: string, schema: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "openapi.yaml"), SPEC.replace("SCHEMA", schema));
  return dir;
}

describe("lint on a stranger's contract", () => {
  it("never loads the redocly.yaml beside the spec: its plugin does not run", async () => {
    const dir = contract("plugin", "{type: object}");
    const marker = join(scratch, "plugin-ran");
    writeFileSync(join(dir, "plugin.cjs"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\nmodule.exports = function () { return { id: "pr" }; };\n`);
    writeFileSync(join(dir, "redocly.yaml"), "plugins:\n  - ./plugin.cjs\nextends:\n  - recommended\n");
    const r = await runCliInProcess(["lint", "--spec", join(dir, "openapi.yaml")]);
    expect([0, 1], r.stderr).toContain(r.code);
    expect(r.stdout).toMatch(/openapi\.yaml: \d+ error\(s\), \d+ warning\(s\)/);
    expect(existsSync(marker)).toBe(false);
  }, LINT_TIMEOUT);

  it("refuses a $ref to a URL with exit 2 and one line, and fetches nothing", async () => {
    const asked: string[] = [];
    const server = createServer((req, res) => {
      asked.push(req.url ?? "");
      res.writeHead(200, { "content-type": "application/yaml" }).end("type: object\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema.yaml`;
      const dir = contract("url", `{$ref: '${url}'}`);
      const r = await runCliInProcess(["lint", "--spec", join(dir, "openapi.yaml")]);
      expect(r.code, r.stderr + r.stdout).toBe(2);
      const lines = r.stderr.split("\n").filter((l) => l.trim() !== "");
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toContain(`openapi.yaml#/paths/~1x/get/responses/200/content/application~1json/schema: $ref ${JSON.stringify(url)} points at a URL`);
      expect(asked).toEqual([]);
    } finally {
      server.close();
    }
  }, LINT_TIMEOUT);
});
