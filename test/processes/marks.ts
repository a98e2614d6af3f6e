/** The environment variables the test run's process bookkeeping passes down (see children.ts). */

/**
 * A folder for this run, set by global-check.ts before the workers start, so every process the
 * run starts inherits it (its mark, which the closing check looks for in /proc/PID/environ); each
 * worker also appends the children it starts to `<worker pid>.pids` there.
 */
export const RUN_DIR_VARIABLE = "SERVICE_CONTRACT_TEST_RUN_DIR";

/** Set by each worker for what it starts: the worker's PID, so the worker finds its own orphans. */
export const OWNER_VARIABLE = "SERVICE_CONTRACT_TEST_OWNER";
