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
let main, internalError;
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main, internalError } = await import(source.href));
} else {
  ({ main, internalError } = await import("../dist/cli/main.js"));
}
// A crash outside main's own try (an error thrown in a callback, a promise nobody awaited) would
// exit 1 by Node's default, which reads as "a check failed": it is an internal error (exit 4).
const crash = (error) => process.exit(internalError(error));
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);
process.exitCode = await main(process.argv.slice(2));
