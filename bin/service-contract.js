#!/usr/bin/env node
// The `service-contract` command. In a clone, where the TypeScript sources are, it runs them
// through tsx (a development dependency), so no build step sits between `npm ci` and the first
// command and an edit takes effect at once. The installed package holds no sources, only the
// compiled `dist/` that `npm pack` builds (prepack), which plain Node runs.
import { existsSync } from "node:fs";
import { setFlagsFromString } from "node:v8";

// PGlite (the reference's embedded Postgres) is ~9 MB of WebAssembly. By default V8 also compiles
// its busy functions with TurboFan, which costs more CPU than it saves in a command's life: a
// `serve` start (open, migrate, seed, the demo history) takes 0.64× the CPU Liftoff-only, while
// queries on a warm server cost ~1.07× (bench/pglite-tiering.ts; bench/README.md). It must be set
// before any WebAssembly is compiled; it changes nothing else, and a program that imports the
// package's modules is not affected.
setFlagsFromString("--liftoff-only");

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
