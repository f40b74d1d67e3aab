/**
 * One read at a time. A check asked for while one runs (a poll, a notification, a writer's own
 * check after its write) waits for it and then runs once more: the running read may predate the
 * caller's write. Callers asking meanwhile share that one follow-up (decision 032).
 */
export function serialCheck(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let followUp: Promise<void> | null = null;
  const check = (): Promise<void> => {
    if (!running) {
      running = run().finally(() => {
        running = null;
      });
      return running;
    }
    followUp ??= running.then(() => {
      followUp = null;
      return check();
    });
    return followUp;
  };
  return check;
}
