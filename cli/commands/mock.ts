/**
 * `service-contract mock`: Prism on the contract. Without --proxy it is a mock server answering
 * from the spec's examples and schemas; with --proxy URL it is a validating proxy in front of a
 * real implementation that reports every request and response violating the contract.
 *
 * Prism runs as a child (`node_modules/.bin/prism`, not `npx`, whose wrapper would outlive us)
 * on a portable single-file bundle of the spec, on a private port behind a small forwarder
 * (prism-front.ts) that keeps the paths Prism crashes on away from it, and is stopped with this
 * command: SIGINT or SIGTERM here stops Prism, prints the violation summary, and exits 1 if any
 * were seen (or if Prism died on its own).
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { dirname, join } from "node:path";
import { existsSync, rmSync } from "node:fs";
import { Command } from "commander";
import type { CommandFactory } from "../main.ts";
import { EXIT_CHECK_FAILED, EXIT_OK, UsageError } from "../exit-codes.ts";
import { parsePort } from "../options.ts";
import { formatProblem, SpecError } from "../../generators/problems.ts";
import { checkCanListen, freePort } from "../free-port.ts";
import { DEFAULT_SPEC } from "../options.ts";
import { resolvePeer } from "../../generators/package-files.ts";
import { parsePrismLine, type Violation } from "../prism-log.ts";
import { startFront } from "../prism-front.ts";
import { examplesAsWireText } from "../wire-examples.ts";
import { watchLauncher } from "../launcher.ts";

/** Prism's launcher in node_modules/.bin; MissingPeerError when @stoplight/prism-cli (an optional peer) is not installed. */
function prismBin(): string {
  const pkg = resolvePeer("@stoplight/prism-cli", "mock", "package.json");
  return join(dirname(dirname(dirname(pkg))), ".bin", "prism");
}

interface MockOptions {
  spec: string;
  port: string;
  host: string;
  proxy?: string;
  errors?: boolean;
}


/**
 * Prism parses JSON and form bodies but not XML: it reports every XML body, its own mock answers
 * and a correct implementation's alike, as "must be object". So XML media types reach Prism as
 * plain strings (the mock still answers the contract's XML examples, turned into their wire text);
 * what the XML holds is checked by `validate` and the conformance suite instead.
 */
function forPrism(doc: unknown): unknown {
  // First, while the XML schemas still name their root element.
  examplesAsWireText(doc);
  const paths = (doc as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      if (op === null || typeof op !== "object") continue;
      const responses = (op as { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }).responses;
      if (!responses) continue;
      for (const response of Object.values(responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (type === "application/xml" || type === "text/xml" || type.endsWith("+xml")) {
            media.schema = { type: "string", description: "XML; Prism cannot parse it, so only its presence is checked here." };
          }
        }
      }
    }
  }
  return doc;
}

function parseUpstream(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--proxy needs an http(s) URL, got ${value}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--proxy needs an http(s) URL, got ${value}`);
  return value;
}

export const mockCommand: CommandFactory = (setExit) =>
  new Command("mock")
    .description("Serve the spec with Prism's mock server, or run Prism's validation proxy with --proxy.")
    .option("--spec <file>", "the OpenAPI document", DEFAULT_SPEC)
    .option("--port <n>", "port to listen on (0 picks a free one)", "4010")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--proxy <url>", "validate traffic to this implementation instead of mocking")
    .option("--errors", "with --proxy: answer a violating exchange with an error instead of passing it through")
    .addHelpText(
      "after",
      "\nPrints one JSON line when ready ({\"mock\":URL} or {\"proxy\":URL,\"upstream\":URL}); stop with Ctrl-C.\n" +
        "Examples:\n  service-contract mock --port 4010\n  service-contract mock --proxy http://127.0.0.1:3000 --port 4011",
    )
    .action(async (opts: MockOptions) => {
      const upstream = opts.proxy === undefined ? undefined : parseUpstream(opts.proxy);
      const port = parsePort("--port", opts.port);
      const prism = prismBin();
      if (!existsSync(opts.spec)) throw new UsageError(`no such file: ${opts.spec}`);
      let bundle: string;
      try {
        // Loaded here: the bundler brings swagger-parser, which no other command's start needs.
        const { writePortableBundle } = await import("../../generators/portable-bundle.ts");
        bundle = await writePortableBundle(opts.spec, forPrism);
      } catch (error) {
        if (!(error instanceof SpecError)) throw error;
        throw new UsageError(`the spec does not load:\n${error.problems.map(formatProblem).join("\n")}`);
      }
      // Refused before Prism starts: a port in use would otherwise surface as fragments of its help.
      await checkCanListen(opts.host, port, "--port");
      const prismHost = "127.0.0.1";
      const prismPort = await freePort(prismHost);
      const args = upstream
        ? ["proxy", bundle, upstream, "-p", String(prismPort), "-h", prismHost, ...(opts.errors ? ["--errors"] : [])]
        : ["mock", bundle, "-p", String(prismPort), "-h", prismHost];
      const child = spawn(prism, args, { stdio: ["ignore", "pipe", "pipe"] });

      const violations: Violation[] = [];
      const requests = new Set<string>();
      let current = "(before any request)";
      let front: Awaited<ReturnType<typeof startFront>> | undefined;
      const onUnchecked = (request: string): void => {
        process.stdout.write(
          upstream
            ? `unchecked ${request}: Prism cannot read it; passed to the upstream without validation\n`
            : `unchecked ${request}: Prism cannot read it; answered 400\n`,
        );
      };
      // Prism's last words, shown if it dies on its own (a crash's stack does not say "error").
      const recent: string[] = [];
      let frontFailed: string | undefined;
      const onLine = (line: string): void => {
        recent.push(line);
        if (recent.length > 30) recent.shift();
        const event = parsePrismLine(line);
        if (event.kind === "listening") {
          void startFront({ host: opts.host, port, prism: event.url, upstream, onUnchecked }).then(
            (started) => {
              front = started;
              const ready = upstream ? { proxy: started.url, upstream } : { mock: started.url };
              process.stdout.write(JSON.stringify(ready) + "\n");
            },
            (error: Error) => {
              frontFailed = `cannot listen on ${opts.host}:${port}: ${error.message}`;
              child.kill("SIGTERM");
            },
          );
        } else if (event.kind === "request") {
          current = event.request;
        } else if (event.kind === "violation") {
          violations.push({ request: current, location: event.location, message: event.message });
          requests.add(current);
          process.stdout.write(`violation ${current} ${event.location}: ${event.message}\n`);
        } else if (front && /\b(error|fatal)\b/i.test(line) && !/Violation/.test(line)) {
          // Before it listens, Prism's complaints are fragments of its help: the exit below says it in one line.
          process.stderr.write(line + "\n");
        }
      };
      createInterface({ input: child.stdout }).on("line", onLine);
      createInterface({ input: child.stderr }).on("line", onLine);

      let stopping = false;
      const stop = (): void => {
        stopping = true;
        child.kill("SIGTERM");
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      // Launched through npm (npx): npm's SIGTERM reaches only the shell between us (cli/launcher.ts).
      const cancelWatch = watchLauncher(stop);

      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      cancelWatch();
      process.removeListener("SIGINT", stop);
      process.removeListener("SIGTERM", stop);
      if (front) {
        front.server.closeAllConnections();
        await new Promise((resolve) => front!.server.close(resolve));
      }
      if (frontFailed !== undefined || (front === undefined && !stopping)) {
        rmSync(dirname(bundle), { recursive: true, force: true });
        throw new UsageError(frontFailed ?? `Prism stopped before it listened (exit code ${code ?? "none"})`);
      }
      // Prism gone without being asked: every request after it went unanswered and unchecked.
      const died = !stopping && front !== undefined;
      if (died) process.stderr.write(`service-contract: Prism stopped unexpectedly (exit ${code}); its last output:\n${recent.join("\n")}\n`);
      rmSync(dirname(bundle), { recursive: true, force: true });
      if (upstream) {
        process.stdout.write(`${violations.length} violation(s) in ${requests.size} request(s)\n`);
        setExit(violations.length === 0 && !died ? EXIT_OK : EXIT_CHECK_FAILED);
      } else {
        setExit((code === 0 || code === null) && !died ? EXIT_OK : EXIT_CHECK_FAILED);
      }
    });
