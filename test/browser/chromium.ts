/**
 * Chromium for browser tests: the system's Chromium driven by playwright-core, which ships no
 * browser of its own, so nothing is downloaded. Tests ask `chromiumSkip()` first; where Chromium is
 * missing they skip with the reason, except under CI (`CI` set), where a missing browser is a
 * broken runner and the test fails. `CHROMIUM_PATH` overrides the executable.
 */
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { chromium, type Browser } from "playwright-core";
import { ceiling } from "../ceilings.ts";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** gitignored; CI can upload it as an artifact. */
export const ARTIFACT_DIR = resolve(import.meta.dirname, "../../test-results");

const ARGS = [
  "--headless",
  "--no-sandbox", // containers and CI runners usually lack the user namespaces the sandbox needs
  "--disable-gpu",
  // No update checks, sync or field trials: a test must not talk to anything but its server.
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage", // /dev/shm is 64 MB in Docker, too small for a renderer
];

/**
 * Playwright gives each action and navigation 30 s by default: a limit a busy machine reaches
 * (test/ceilings.ts). Every context and page this browser makes gets a ceiling instead.
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS, timeout: ceiling(30_000) });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.setDefaultTimeout(ceiling(30_000));
    context.setDefaultNavigationTimeout(ceiling(30_000));
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...args) => {
    const page = await newPage(...args);
    page.setDefaultTimeout(ceiling(30_000));
    page.setDefaultNavigationTimeout(ceiling(30_000));
    return page;
  };
  return browser;
}

export type Availability = { available: true; version: string } | { available: false; reason: string };

let cached: Promise<Availability> | undefined;

/** Whether Chromium exists and starts (`--version`); checked once per process. */
export function chromiumAvailable(): Promise<Availability> {
  cached ??= promisify(execFile)(CHROMIUM_PATH, ["--version"], { timeout: ceiling(15_000) }).then(
    ({ stdout }): Availability => ({ available: true, version: stdout.trim() }),
    (error: NodeJS.ErrnoException): Availability => ({
      available: false,
      reason: error.code === "ENOENT" ? `no Chromium at ${CHROMIUM_PATH}` : `${CHROMIUM_PATH} --version failed: ${error.message}`,
    }),
  );
  return cached;
}

/**
 * `undefined` when browser tests can run, else why they are skipped. Under CI it throws instead,
 * so the missing browser shows up as a failure rather than as quietly skipped tests.
 */
export async function chromiumSkip(): Promise<string | undefined> {
  const status = await chromiumAvailable();
  if (status.available) return undefined;
  const reason = `${status.reason} (install Debian's chromium package or set CHROMIUM_PATH)`;
  if (process.env.CI) throw new Error(`browser tests need Chromium under CI: ${reason}`);
  return reason;
}

/** Write a test artifact (screenshot, trace) to test-results/ and return its path. */
export function saveArtifact(name: string, data: Buffer | string): string {
  mkdirSync(ARTIFACT_DIR, { recursive: true });
  const path = join(ARTIFACT_DIR, name);
  writeFileSync(path, data);
  return path;
}
