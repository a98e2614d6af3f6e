/**
 * A bench server process answers its parent's "cpu" message with its own CPU time (user +
 * system, µs) over IPC: CPU per request is far less sensitive than requests/s to other work on
 * the machine, so the bench reads it around each measurement.
 */
export function answerCpuRequests(): void {
  process.on("message", (message) => {
    if (message === "cpu") {
      const { user, system } = process.cpuUsage();
      process.send!({ cpu: user + system });
    }
  });
}
