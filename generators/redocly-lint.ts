/**
 * Runs Redocly's linter on the spec with the committed config and returns its findings as
 * catalogued problems. Redocly CLI ships as one bundled binary with no programmatic API, so it
 * runs as a child process with JSON output; telemetry and update checks are off because the
 * machines this runs on (CI, build pipelines) have no business phoning out.
 */
import { spawn } from "node:child_process";
import { dirname, join, relative, resolve } from "node:path";
import type { Problem } from "./problems.ts";
import { resolvePeer } from "./package-files.ts";

interface RedoclyProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: { source: { ref: string }; pointer: string }[];
}

/** Throws MissingPeerError when @redocly/cli (an optional peer) is not installed. */
export async function redoclyLint(specPath: string, configPath: string): Promise<Problem[]> {
  const redoclyBin = join(dirname(resolvePeer("@redocly/cli", "lint", "package.json")), "bin/cli.js");
  const args = [redoclyBin, "lint", specPath, "--config", configPath, "--format", "json"];
  const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.stderr.on("data", (d: Buffer) => (err += d));
    child.on("error", reject);
    child.on("close", () => resolve({ stdout: out, stderr: err }));
  });
  const start = stdout.indexOf("{");
  if (start < 0) throw new Error(`redocly lint produced no report:\n${stderr.trim()}`);
  const report = JSON.parse(stdout.slice(start)) as { problems: RedoclyProblem[] };
  return report.problems.map((p) => {
    const loc = p.location[0];
    return {
      code: "LINT" as const,
      rule: p.ruleId,
      pointer: loc?.pointer ?? "#",
      // Redocly 2 reports sources relative to the working folder (or absolute), whatever folder the config is in.
      file: loc ? relative(process.cwd(), resolve(loc.source.ref)) : undefined,
      message: p.message,
      severity: p.severity === "error" ? ("error" as const) : ("warning" as const),
    };
  });
}
