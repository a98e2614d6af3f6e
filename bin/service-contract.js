#!/usr/bin/env node
// The `service-contract` command. In a clone, where the TypeScript sources are, it runs them
// through tsx (a development dependency), so no build step sits between `npm ci` and the first
// command and an edit takes effect at once. The installed package holds no sources, only the
// compiled `dist/` that `npm pack` builds (prepack), which plain Node runs.
import { existsSync } from "node:fs";

const source = new URL("../cli/main.ts", import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import("../dist/cli/main.js"));
}
process.exitCode = await main(process.argv.slice(2));
