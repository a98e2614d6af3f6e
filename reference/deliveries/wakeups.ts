/**
 * Wake-ups across instances on PostgreSQL: every enqueue sends NOTIFY in its transaction
 * (queue.ts), which PostgreSQL delivers at commit — after the job is visible — to each instance
 * LISTENing here on a connection of its own. A lost connection is re-opened; meanwhile the
 * workers' polling still finds the work, only later.
 */
import pg from "pg";

export interface Wakeups {
  close(): Promise<void>;
}

export async function listenForWakeups(url: string, channel: string, onWake: () => void, onError: (error: unknown) => void): Promise<Wakeups> {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const open = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, application_name: "service-contract deliveries" });
    client = c;
    c.on("notification", () => onWake());
    c.on("error", (error) => {
      if (closed) return;
      onError(error);
      void c.end().catch(() => {});
      reopen();
    });
    await c.connect();
    await c.query(`listen ${pg.escapeIdentifier(channel)}`);
    // Whatever was enqueued while no one listened.
    onWake();
  };
  const reopen = (): void => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      open().catch((error: unknown) => {
        onError(error);
        reopen();
      });
    }, 1000);
    retry.unref();
  };

  await open();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
