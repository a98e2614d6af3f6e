/**
 * The two tarballs `npm pack` makes of this repository (the toolkit, whose prepack builds dist/
 * with tsc, and the light `@service-contract/validators`), made once per test run and shared by
 * the files that install them (test/package/consumer.test.ts, the README's walk-throughs in
 * test/cli/readme-examples.test.ts). Packing costs about 15 s of CPU; two files each packing
 * would also race on dist/.
 *
 * The toolkit's prepack (`npm run prepack`: tsc, ~26 s of CPU) has run already, once for the whole
 * run, before this module finished loading (../cli/compiled-cli.ts, which builds the dist/ the CLI
 * tests run): so it is packed with --ignore-scripts, the two steps `npm pack` takes one after the
 * other, and dist/ is never rebuilt while another test file's commands run from it.
 *
 * The toolkit's tarball installed into an empty project is made once per run too
 * (installedToolkit), and shared the same way: one install where each file made its own.
 *
 * Once per run, across vitest's worker processes: the first caller creates the run's `pack/`
 * (`installed/`) folder (mkdir is atomic) and makes it; the others wait for its `ready.json` (or
 * `failed.txt`). The run folder (test/processes/marks.ts) is removed when the run ends.
 */
import { execFile } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../repo-root.ts";
// Builds dist/ (npm run prepack) before this module loads, or finds it current: see above.
import { watching } from "../cli/compiled-cli.ts";
import { ceiling } from "../ceilings.ts";
import { RUN_DIR_VARIABLE } from "../processes/marks.ts";

const exec = promisify(execFile);

export interface Tarballs {
  toolkit: string;
  validators: string;
}

/** npm as the user runs it, without the settings of an `npm test` that may be running this file. */
export const npmEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_"))),
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command; a failure is a result (its exit code and output), not an exception. */
export async function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = npmEnv): Promise<Run> {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? String(error) };
  }
}

/** Runs a command that must succeed. */
export async function ok(command: string, args: string[], cwd: string): Promise<Run> {
  const run = await sh(command, args, cwd);
  if (run.code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run;
}

/** An empty ESM project, as `npm init` leaves one. */
export function emptyProject(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }, null, 2));
}

/** `npm install` of a tarball into a project, from npm's cache where it can. */
export function install(project: string, tarball: string): Promise<Run> {
  return ok("npm", ["install", "--prefer-offline", tarball], project);
}

async function pack(into: string): Promise<Tarballs> {
  // The toolkit's prepack ran once for the run (compiled-cli.ts; not in watch mode, where nothing
  // else reads dist/ and `npm pack` builds it); the light package runs its own, which only copies
  // the validators and compiles one file into packages/validators/dist/.
  await Promise.all([
    ok("npm", ["pack", ...(watching ? [] : ["--ignore-scripts"]), "--pack-destination", into], repoRoot),
    ok("npm", ["pack", "-w", "packages/validators", "--pack-destination", into], repoRoot),
  ]);
  const files = readdirSync(into);
  const find = (prefix: string) => {
    const name = files.find((f) => f.startsWith(prefix) && f.endsWith(".tgz"));
    if (!name) throw new Error(`npm pack wrote no ${prefix}*.tgz in ${into} (it holds: ${files.join(", ")})`);
    return join(into, name);
  };
  return { toolkit: find("service-contract-"), validators: find("service-contract-validators-") };
}

let mine: Promise<Tarballs> | undefined;

/** The run's tarballs, packed by whichever file asked first. */
export function packedTarballs(): Promise<Tarballs> {
  mine ??= oncePerRun("pack", ceiling(300_000), pack);
  return mine;
}

/** The run's one project with the toolkit installed, as a user's is after `npm install service-contract`. */
export interface InstalledToolkit {
  /** An empty ESM project (emptyProject) into which the toolkit's tarball was installed, and nothing else. */
  project: string;
  /** `du -sk node_modules` in MB, measured before any test ran in it: the toolkit without its optional peers. */
  mb: number;
  /** What `npm install` printed (warnings such as EBADENGINE). */
  output: string;
}

let installed: Promise<InstalledToolkit> | undefined;

/**
 * The toolkit's tarball installed into an empty project once per run (an install is ~7 s of CPU),
 * shared by the files that need exactly that project: test/package/consumer.test.ts and the README
 * blocks marked installed (test/cli/readme-examples.test.ts). They read it and run its commands;
 * a file that installs more or writes files works in a copy of it (copyProject) or in a folder of
 * its own whose node_modules links to it (besideProject), never in it.
 */
export function installedToolkit(): Promise<InstalledToolkit> {
  installed ??= oncePerRun("installed", ceiling(600_000), async (dir) => {
    const { toolkit } = await packedTarballs();
    const project = join(dir, "project");
    emptyProject(project);
    const run = await install(project, toolkit);
    return { project, mb: await installedMb(project), output: run.stdout + run.stderr };
  });
  return installed;
}

/** `du -sk node_modules` in MB: what the install costs on disk. */
export async function installedMb(project: string): Promise<number> {
  const { stdout } = await ok("du", ["-sk", "node_modules"], project);
  return Number(stdout.split("\t")[0]) / 1024;
}

/**
 * A project of one's own that is the installed one, to install more into or write into: its
 * package.json, lock file and node_modules copied (~1 s of CPU, against ~7 s for installing the
 * toolkit again), links inside node_modules (.bin) kept as they are. It is made beside the
 * installed project, `name` its folder's name, so the relative `file:` path npm wrote for the
 * tarball in package.json and the lock file still leads to it. Returns its path.
 */
export function copyProject(from: string, name: string): string {
  const to = join(dirname(from), name);
  mkdirSync(to);
  for (const file of ["package.json", "package-lock.json", "node_modules"]) {
    // Timestamps kept: npm trusts node_modules/.package-lock.json only if it is not older than the folders.
    cpSync(join(from, file), join(to, file), { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  }
  return to;
}

/**
 * A folder of one's own to run the installed project's commands in and write into, installing
 * nothing: its package.json and lock file copied, its node_modules a link to the installed one;
 * beside the installed project, as copyProject's. Returns its path.
 */
export function besideProject(from: string, name: string): string {
  const to = join(dirname(from), name);
  mkdirSync(to);
  for (const file of ["package.json", "package-lock.json"]) copyFileSync(join(from, file), join(to, file));
  symlinkSync(join(from, "node_modules"), join(to, "node_modules"), "dir");
  return to;
}

/**
 * `make(dir)` once per test run, across vitest's worker processes: the first caller creates the
 * run's `<name>/` folder (mkdir is atomic) and makes it there; the others wait for its
 * `ready.json` (or `failed.txt`), within `waitMs`.
 */
async function oncePerRun<T>(name: string, waitMs: number, make: (dir: string) => Promise<T>): Promise<T> {
  const runDir = process.env[RUN_DIR_VARIABLE] ?? mkdtempSync(join(tmpdir(), "sc-pack-"));
  const dir = join(runDir, name);
  const ready = join(dir, "ready.json");
  const failed = join(dir, "failed.txt");
  let owner = true;
  try {
    mkdirSync(dir);
  } catch {
    owner = false;
  }
  if (owner) {
    try {
      const made = await make(dir);
      // Written whole, then renamed: a waiting worker never reads half of it.
      writeFileSync(`${ready}.tmp`, JSON.stringify(made));
      renameSync(`${ready}.tmp`, ready);
      return made;
    } catch (error) {
      writeFileSync(failed, String((error as Error).stack ?? error));
      throw error;
    }
  }
  // Another worker makes it: wait for its verdict (a condition, with a ceiling for a stuck one).
  for (const until = Date.now() + waitMs; Date.now() < until; ) {
    if (existsSync(ready)) return JSON.parse(readFileSync(ready, "utf8")) as T;
    if (existsSync(failed)) throw new Error(`${name} failed in another test file:\n${readFileSync(failed, "utf8")}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`nothing in ${dir}: the test file making it did not finish`);
}
