/**
 * `service-contract validate`: check payload files against the contract with the precompiled
 * validators — a webhook body by event name, or any value by schema title. One line per file;
 * exit 0 when every file is valid, 1 when any is not, 2 for an unknown event/schema or an
 * unreadable file. A form-encoded webhook body (`payload=…`) is decoded first, as a receiver would.
 */
import { readFileSync } from "node:fs";
import { Command } from "commander";
import type { CommandFactory } from "../main.ts";
import { EXIT_CHECK_FAILED, EXIT_OK, UsageError } from "../exit-codes.ts";
import type { ValidationError } from "../../generated/validators/index.js";

interface ValidateOptions {
  event?: string;
  schema?: string;
  json?: boolean;
}

interface FileResult {
  file: string;
  valid: boolean;
  errors: ValidationError[];
}

function readInput(file: string): string {
  try {
    return file === "-" ? readFileSync(0, "utf8") : readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** JSON, or a form body whose `payload` field is JSON (webhooks with content_type form). */
function parsePayload(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed.startsWith("payload=")) {
    const payload = new URLSearchParams(trimmed).get("payload");
    text = payload ?? "";
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: `not valid JSON: ${(error as Error).message}` };
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
        "  curl -s $API/events | jq '.[0]' | service-contract validate --schema ActivityEvent -",
    )
    .action(async (files: string[], opts: ValidateOptions) => {
      // Loaded here, not at the top: generate must keep working when generated/ is broken or absent.
      const { schemaNames, validateSchema, validateWebhook, webhookEvents } = await import("../../generated/validators/index.js");
      if ((opts.event === undefined) === (opts.schema === undefined)) throw new UsageError("give exactly one of --event or --schema");
      if (opts.event !== undefined && !webhookEvents.includes(opts.event as never)) {
        throw new UsageError(`unknown event ${JSON.stringify(opts.event)}; known: ${webhookEvents.join(", ")}`);
      }
      if (opts.schema !== undefined && !schemaNames.includes(opts.schema as never)) {
        throw new UsageError(`unknown schema ${JSON.stringify(opts.schema)}; known: ${schemaNames.join(", ")}`);
      }
      if (files.filter((f) => f === "-").length > 1) throw new UsageError("- (standard input) can be given once");

      const results: FileResult[] = files.map((file) => {
        const parsed = parsePayload(readInput(file));
        if (!parsed.ok) return { file, valid: false, errors: [{ path: "", message: parsed.message }] };
        const result = opts.event !== undefined ? validateWebhook(opts.event, parsed.value) : validateSchema(opts.schema!, parsed.value);
        return { file, valid: result.valid, errors: result.valid ? [] : result.errors };
      });

      if (opts.json) {
        process.stdout.write(JSON.stringify({ valid: results.every((r) => r.valid), results }, null, 2) + "\n");
      } else {
        for (const r of results) {
          const detail = r.errors.map((e) => `${e.path || "/"} ${e.message}`).join("; ");
          process.stdout.write(r.valid ? `ok      ${r.file}\n` : `invalid ${r.file}: ${detail}\n`);
        }
      }
      setExit(results.every((r) => r.valid) ? EXIT_OK : EXIT_CHECK_FAILED);
    });
