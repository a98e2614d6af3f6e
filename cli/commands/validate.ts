/**
 * `service-contract validate`: check payload files against the contract with the precompiled
 * validators — a webhook body by event name, or any value by schema title. One line per file
 * (an unreadable file's on stderr); exit 0 when every file is valid, 1 when any is not (an empty
 * or non-JSON file is invalid), 2 for an unknown event/schema or a file that cannot be read.
 * A form-encoded webhook body (`payload=…`) is decoded first, as a receiver would.
 */
import { readFileSync } from "node:fs";
import { Command } from "commander";
import type { CommandFactory } from "../main.ts";
import { EXIT_CHECK_FAILED, EXIT_OK, EXIT_USAGE, UsageError } from "../exit-codes.ts";
import type { ValidationError } from "../../generated/validators/index.js";

interface ValidateOptions {
  event?: string;
  schema?: string;
  json?: boolean;
}

interface FileResult {
  file: string;
  valid: boolean;
  /** The file could not be read (missing, a directory, no permission). */
  unreadable?: boolean;
  errors: ValidationError[];
}

const READ_ERRORS: Record<string, string> = { ENOENT: "no such file", EISDIR: "is a directory", EACCES: "permission denied" };

/** The file's text, or why it cannot be read (a short reason, never a stack trace). */
function readInput(file: string): { ok: true; text: string } | { ok: false; message: string } {
  try {
    return { ok: true, text: file === "-" ? readFileSync(0, "utf8") : readFileSync(file, "utf8") };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, message: `cannot read: ${(code && READ_ERRORS[code]) ?? code ?? (error as Error).message}` };
  }
}

/** JSON, or a form body whose `payload` field is JSON (webhooks with content_type form). */
function parsePayload(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  // Editors on some systems save JSON with a byte-order mark, which JSON.parse rejects.
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const trimmed = text.trim();
  if (trimmed.startsWith("payload=")) {
    const payload = new URLSearchParams(trimmed).get("payload");
    text = payload ?? "";
  }
  if (text.trim() === "") return { ok: false, message: "empty input, expected a JSON value" };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    // JSON.parse quotes the input, newlines included; keep the report to one line per file.
    return { ok: false, message: `not valid JSON: ${(error as Error).message.replace(/\s+/g, " ")}` };
  }
}

export const validateCommand: CommandFactory = (setExit) =>
  new Command("validate")
    .description("Validate JSON files against a webhook event's payload schema or a named schema.")
    .argument("<files...>", "files to check; - reads standard input")
    .option("--event <name>", "webhook event name (push, ping, issues, …)")
    .option("--schema <Name>", "schema title (e.g. ActivityEvent, IssueEventWithIssue, Hook)")
    .option("--json", "print machine-readable results")
    .addHelpText(
      "after",
      "\nExamples:\n  service-contract validate --event push spec/examples/webhooks/push/valid-branch-push.json\n" +
        "  curl -s $API/events | jq '.[0]' | service-contract validate --schema ActivityEvent -\n" +
        "\nExit codes: 0 every file valid, 1 any file invalid (empty or not JSON included), 2 a usage error or a file that cannot be read.",
    )
    .action(async (files: string[], opts: ValidateOptions) => {
      // Loaded here, not at the top: generate must keep working when generated/ is broken or absent.
      const { schemaNames, validateSchema, validateWebhook, webhookEvents } = await import("../../generated/validators/index.js").catch((error: unknown) => {
        throw new UsageError(`the generated validators cannot be loaded (run: service-contract generate): ${(error as Error).message}`);
      });
      if ((opts.event === undefined) === (opts.schema === undefined)) throw new UsageError("give exactly one of --event or --schema");
      if (opts.event !== undefined && !webhookEvents.includes(opts.event as never)) {
        throw new UsageError(`unknown event ${JSON.stringify(opts.event)}; known: ${webhookEvents.join(", ")}`);
      }
      if (opts.schema !== undefined && !schemaNames.includes(opts.schema as never)) {
        throw new UsageError(`unknown schema ${JSON.stringify(opts.schema)}; known: ${schemaNames.join(", ")}`);
      }
      if (files.filter((f) => f === "-").length > 1) throw new UsageError("- (standard input) can be given once");

      const results: FileResult[] = files.map((file) => {
        const input = readInput(file);
        if (!input.ok) return { file, valid: false, unreadable: true, errors: [{ path: "", message: input.message }] };
        const parsed = parsePayload(input.text);
        if (!parsed.ok) return { file, valid: false, errors: [{ path: "", message: parsed.message }] };
        const result = opts.event !== undefined ? validateWebhook(opts.event, parsed.value) : validateSchema(opts.schema!, parsed.value);
        return { file, valid: result.valid, errors: result.valid ? [] : result.errors };
      });

      if (opts.json) {
        process.stdout.write(JSON.stringify({ valid: results.every((r) => r.valid), results }, null, 2) + "\n");
      } else {
        for (const r of results) {
          // A root-level problem has the empty pointer; print just its message.
          const detail = r.errors.map((e) => (e.path ? `${e.path} ${e.message}` : e.message)).join("; ");
          if (r.unreadable) process.stderr.write(`error   ${r.file}: ${detail}\n`);
          else process.stdout.write(r.valid ? `ok      ${r.file}\n` : `invalid ${r.file}: ${detail}\n`);
        }
      }
      // A file that cannot be read was not checked at all: that is a usage error (2), not "invalid".
      setExit(results.some((r) => r.unreadable) ? EXIT_USAGE : results.every((r) => r.valid) ? EXIT_OK : EXIT_CHECK_FAILED);
    });
