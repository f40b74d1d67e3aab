import { Menu } from "lucide-react";
import { Link } from "react-router";
import { ThemeToggle } from "../../components/theme.tsx";
import { BrandMark } from "./brand.tsx";
import { useSidebar } from "./sidebar-context.tsx";
import { StartupLoader } from "./startup-loader.tsx";
import { StatusOverlay } from "./status-overlay.tsx";

/**
 * Top bar below the 1024 px breakpoint: menu button (opens the sidebar drawer), brand, the docked
 * status overlay, theme.
 */
export function MobileHeader({ productName }: { productName: string }) {
  const { mobileOpen, setMobileOpen } = useSidebar();
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-line bg-canvas/90 px-4 backdrop-blur lg:hidden">
      <button
        id="menu-button"
        type="button"
        aria-label="Open menu"
        aria-controls="app-sidebar"
        aria-expanded={mobileOpen}
        onClick={() => setMobileOpen(true)}
        className="-ml-1.5 inline-flex size-9 items-center justify-center rounded-md text-ink-muted hover:bg-sunken hover:text-ink"
      >
        <Menu aria-hidden="true" className="size-5" />
      </button>
      <Link to="/" className="flex min-w-0 items-center gap-2 rounded-md">
        <BrandMark className="size-7" />
        <span className="truncate text-sm font-semibold text-ink">{productName}</span>
      </Link>
      <StatusOverlay placement="header" className="ml-auto shrink-0" />
      <ThemeToggle className="shrink-0" />
      <StartupLoader placement="header" />
    </header>
  );
}
