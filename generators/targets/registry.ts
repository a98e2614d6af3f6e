/**
 * The lookup table of generate targets: one entry per output family, in the order they run.
 * Adding a target means adding a file under `targets/` and a line here.
 */
import type { Model } from "../model.ts";
import type { GeneratedFile } from "../output.ts";
import type { OpenApiDocument } from "../load-spec.ts";
import { clientTarget } from "./client/index.ts";
import { serverTarget } from "./server/index.ts";
import { typesTarget } from "./types.ts";
import { validatorsTarget } from "./validators/index.ts";

export interface TargetInput {
  model: Model;
  /** The single-file, `$id`-free document (see portable-bundle.ts). */
  portable: OpenApiDocument;
  /** The spec path as it should appear in generated headers (`spec/openapi.yaml`). */
  source: string;
}

export type Target = (input: TargetInput) => GeneratedFile[] | Promise<GeneratedFile[]>;

export const TARGETS: Record<string, Target> = {
  types: (input) => typesTarget(input),
  validators: ({ model, source }) => validatorsTarget(model, source),
  client: (input) => clientTarget(input),
  server: (input) => serverTarget(input),
};

export const TARGET_NAMES = Object.keys(TARGETS);
