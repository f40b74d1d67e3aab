import { useState } from "react";
import { useRevalidator } from "react-router";
import { showToast } from "../../components/app-toaster.tsx";
import { api, settle } from "../../lib/api.ts";

/**
 * One billing write through the REST API (`/api/billing/*`) with its loading and error state;
 * on success the page's data is loaded again and a toast says what happened.
 */
export function useBillingAction() {
  const { revalidate } = useRevalidator();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(key: string, path: string, body: unknown, done: string): Promise<boolean> {
    if (busy) return false;
    setBusy(key);
    setError(null);
    const result = await settle(api.post(path, body));
    setBusy(null);
    if (!result.ok) {
      setError(result.error.message);
      if (result.error.code === "STALE_VERSION") void revalidate();
      return false;
    }
    showToast(done);
    await revalidate();
    return true;
  }

  return { busy, error, setError, run };
}
