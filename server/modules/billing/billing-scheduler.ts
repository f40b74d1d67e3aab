/**
 * The billing job (decision 019): one pass of the billing sweep (billing-sweep.ts) every second,
 * unref'd, so renewals, period ends, grace ends and abandoned checkouts take effect with nobody
 * visiting. `runDue` goes through the job's lease (decision 028), so one process runs each tick;
 * conditional UPDATEs (each row at its version) still keep two passes from doing one transition
 * twice.
 */
export interface BillingSchedulerDeps {
  billing: { runDue(): Promise<unknown> };
  intervalMs?: number;
  logger?: { error(details: object, message: string): void };
}

export function startBillingScheduler(deps: BillingSchedulerDeps): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = deps.billing
      .runDue()
      .catch((error) => deps.logger?.error({ err: error }, "billing: the scheduled pass failed"))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, deps.intervalMs ?? 1000);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
