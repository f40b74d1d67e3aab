import { type CSSProperties, lazy, Suspense, useEffect, useSyncExternalStore } from "react";
import { TOAST_DURATION_MS, TOAST_LIMIT, TOAST_WIDTH_PX } from "../../core/index.ts";
import { useTheme } from "./theme.tsx";

/** sonner is loaded with the first toast, so a page that shows none never downloads it. */
const Toaster = lazy(() => import("sonner").then((m) => ({ default: m.Toaster })));

let wanted = false;
const listeners = new Set<() => void>();
let markMounted: () => void = () => {};
/** Settles once the Toaster has mounted and listens: a toast sent earlier would be lost. */
const toasterMounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function Mounted() {
  useEffect(() => markMounted(), []);
  return null;
}

/** sonner with the spec's limits: 3 visible, 4 s each, 356 px wide; mounted on the first toast. */
export function AppToaster() {
  const { theme } = useTheme();
  const show = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <Toaster
        theme={theme}
        position="bottom-right"
        offset={{ bottom: 16, right: 16 }}
        visibleToasts={TOAST_LIMIT}
        duration={TOAST_DURATION_MS}
        style={{ "--width": `${TOAST_WIDTH_PX}px` } as CSSProperties}
        closeButton
      />
      {/* After the Toaster in the tree, so its effect runs once the Toaster's have. */}
      <Mounted />
    </Suspense>
  );
}

/** Shows a toast, loading sonner and mounting the Toaster on first use. */
export function showToast(message: string, options?: { description?: string }) {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  void Promise.all([import("sonner"), toasterMounted]).then(([{ toast }]) => toast(message, options));
}
