#!/usr/bin/env node
// The `service-contract` command. The toolkit is written in TypeScript and runs from source
// through tsx, so a fresh clone needs no build step between `npm ci` and the first command.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
