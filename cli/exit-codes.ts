/** Exit codes shared by every subcommand: pipelines branch on these, so they never change. */
export const EXIT_OK = 0;
/** The command ran and found a problem: a lint error, drift, an invalid payload, a failed case. */
export const EXIT_CHECK_FAILED = 1;
/**
 * conformance only: every seed rule held, but a decision of the contract failed — the target
 * keeps the seed and departs from this contract's own choices (switch them off in the profile
 * where it chose otherwise on purpose).
 */
export const EXIT_DECISIONS_FAILED = 3;
/** The command could not run as asked: bad flags, a missing file, an unreachable target. */
export const EXIT_USAGE = 2;

/**
 * The command itself broke: an error it did not expect (a bug of service-contract, whatever the
 * input). Never 1, which a pipeline reads as "the check found a problem" — for conformance, that a
 * seed rule failed.
 */
export const EXIT_INTERNAL = 4;

/** Thrown by a subcommand for a usage or input error; main() prints it and exits 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
