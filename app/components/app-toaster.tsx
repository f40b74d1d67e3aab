import { type CSSProperties, lazy, Suspense, useEffect, useState } from "react";
import { TOAST_DURATION_MS, TOAST_LIMIT, TOAST_WIDTH_PX } from "../../core/index.ts";
import { useTheme } from "./theme.tsx";

/** sonner is loaded after hydration so it never weighs on the first load. */
const Toaster = lazy(() => import("sonner").then((m) => ({ default: m.Toaster })));

/** sonner with the spec's limits: 3 visible, 4 s each, 356 px wide. */
export function AppToaster() {
  const { theme } = useTheme();
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <Toaster
        theme={theme}
        position="bottom-right"
        offset={{ bottom: 56, right: 16 }}
        visibleToasts={TOAST_LIMIT}
        duration={TOAST_DURATION_MS}
        style={{ "--width": `${TOAST_WIDTH_PX}px` } as CSSProperties}
        closeButton
      />
    </Suspense>
  );
}

/** Shows a toast, loading sonner on first use (same module instance as the Toaster above). */
export function showToast(message: string, options?: { description?: string }) {
  void import("sonner").then(({ toast }) => toast(message, options));
}
