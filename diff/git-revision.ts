/**
 * `--base-ref REV`: the contract as it is at a git revision of the repository the head contract
 * is in. The head's folder (e.g. `spec/`) is taken at REV with `git ls-tree` and written, file by
 * file, from one `git cat-file --batch` into a temporary folder, so the base is read exactly like
 * the head (a folder on disk). Not `git archive`: it drops files marked `export-ignore`.
 *
 * A revision is someone else's data (a pull request's branch): a crafted tree can hold entries
 * named `..` (git's own checkout refuses them; `ls-tree` lists them), so every path is checked
 * before anything is written, and one that would land outside the temporary folder refuses the
 * revision (exit 2) instead of writing there.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { ContractReadError } from "./documents.ts";

function git(cwd: string, args: string[], input?: string): Buffer {
  const r = spawnSync("git", args, { cwd, input, maxBuffer: 1 << 30 });
  if (r.error) throw new ContractReadError(`--base-ref needs git: ${(r.error as NodeJS.ErrnoException).code === "ENOENT" ? "git is not installed" : r.error.message}`);
  if (r.status !== 0) throw new ContractReadError(`git ${args[0]}: ${r.stderr.toString().trim().split("\n")[0]}`);
  return r.stdout;
}

export interface Checkout {
  /** The folder or root file at the revision, standing where the head's stands in the temporary tree. */
  path: string;
  /** Removes the temporary folder. */
  remove(): void;
  /** A message about the checkout with the temporary folder named as git would (`main:spec`), for the user. */
  relabel(message: string): string;
}

/**
 * The contract at `rev`: `headPath` (a folder or a root document inside a git work tree) names
 * which part of the tree; the whole folder holding it is written out (its schema files and rule
 * table come along).
 */
export function checkoutAt(rev: string, headPath: string): Checkout {
  if (rev.trim() === "" || rev.startsWith("-")) throw new ContractReadError(`--base-ref takes a revision (a branch, tag or commit), got ${JSON.stringify(rev)}`);
  const absolute = realpathSync(resolve(headPath));
  const isFolder = statSync(absolute).isDirectory();
  const folder = isFolder ? absolute : dirname(absolute);
  const topText = spawnSync("git", ["rev-parse", "--show-toplevel"], { cwd: folder });
  if (topText.error || topText.status !== 0) throw new ContractReadError(`--base-ref: ${headPath} is not inside a git repository`);
  const top = realpathSync(topText.stdout.toString().trim());
  const inRepo = relative(top, folder).split(sep).join("/");
  const commit = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`], { cwd: top });
  if (commit.status !== 0) throw new ContractReadError(`--base-ref: ${rev} is no revision of the repository at ${top} (a branch you have not fetched?)`);
  const sha = commit.stdout.toString().trim();

  const listing = git(top, ["ls-tree", "-r", "-z", "--full-tree", sha, "--", inRepo === "" ? "." : inRepo]).toString();
  const entries = listing
    .split("\0")
    .filter(Boolean)
    .map((line) => {
      const [meta, path] = line.split("\t") as [string, string];
      const [mode, type, object] = meta.split(" ") as [string, string, string];
      return { mode, type, object, path };
    })
    // Regular files only: a symlink's target or a submodule is not part of the contract's text.
    .filter((e) => e.type === "blob" && e.mode !== "120000");
  if (entries.length === 0) throw new ContractReadError(`--base-ref: ${inRepo || "."} does not exist at ${rev}`);
  for (const e of entries) {
    if (!safePath(e.path)) throw new ContractReadError(`--base-ref: ${rev} holds a file whose path leaves its folder (${JSON.stringify(e.path)}); refused`);
  }

  const out = mkdtempSync(join(tmpdir(), "service-contract-diff-"));
  try {
    const batch = git(top, ["cat-file", "--batch"], entries.map((e) => e.object).join("\n") + "\n");
    let offset = 0;
    for (const e of entries) {
      const headerEnd = batch.indexOf(10, offset);
      const size = Number(batch.subarray(offset, headerEnd).toString().split(" ")[2]);
      const body = batch.subarray(headerEnd + 1, headerEnd + 1 + size);
      offset = headerEnd + 1 + size + 1;
      const file = join(out, ...e.path.split("/"));
      // The components were checked above; this holds whatever join() makes of them.
      if (!file.startsWith(out + sep)) throw new ContractReadError(`--base-ref: ${rev} holds a file whose path leaves its folder (${JSON.stringify(e.path)}); refused`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, body);
    }
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
  const base = join(out, ...(inRepo === "" ? [] : inRepo.split("/")));
  const relabel = (message: string) => {
    // Longest first: the folder as given and as relative from here (how documents.ts shows files).
    const forms = [...new Set([out, relative(process.cwd(), out)])].filter((f) => f !== "").sort((a, b) => b.length - a.length);
    let text = message;
    for (const form of forms) text = text.split(form + sep).join(`${rev}:`).split(form).join(`${rev}:`);
    return text;
  };
  return { path: isFolder ? base : join(base, basename(absolute)), remove: () => rmSync(out, { recursive: true, force: true }), relabel };
}

/**
 * A tree path git would check out: relative, no empty, `.` or `..` component, no backslash or
 * drive letter (another system's separator), no NUL. `.git` components are refused as git does.
 */
function safePath(path: string): boolean {
  if (path === "" || path.startsWith("/") || path.includes("\\") || path.includes("\0") || /^[A-Za-z]:/.test(path)) return false;
  return path.split("/").every((part) => part !== "" && part !== "." && part !== ".." && part.toLowerCase() !== ".git");
}
