import { useEffect, useState } from "react";
import { secondsUntil } from "./form-helpers.ts";

/**
 * Seconds left until `deadline` (epoch ms), re-rendering once a second while it runs; 0 when there
 * is no deadline or it has passed. Renders 0 on the server and the first client render.
 */
export function useCountdown(deadline: number | null): number {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    if (deadline === null || deadline <= Date.now()) return;
    const id = window.setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= deadline) window.clearInterval(id);
    }, 1000);
    return () => window.clearInterval(id);
  }, [deadline]);
  return now === null ? 0 : secondsUntil(deadline, now);
}
