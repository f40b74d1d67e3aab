import { ChevronDown, Lock, PanelLeftClose, PanelLeftOpen, Search, UserRound, X } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Link, NavLink, useLocation, useNavigate } from "react-router";
import {
  flattenRoutes,
  lockedItemTarget,
  PLAN_BADGE_TEXT,
  type PlanBadge,
  type RouteDefinition,
  SEARCH_PLACEHOLDER,
  type SidebarItem,
  type SidebarSection,
  searchDestination,
  sidebarSections,
  signInUrl,
} from "../../../core/index.ts";
import { ThemeToggle } from "../../components/theme.tsx";
import { cx } from "../../components/ui/cx.ts";
import { iconFor } from "../../components/ui/icon.tsx";
import { useAuth } from "../../lib/session/auth-context.tsx";
import { BrandMark } from "./brand.tsx";
import { useSidebar } from "./sidebar-context.tsx";
import { StartupLoader } from "./startup-loader.tsx";
import { StatusOverlay } from "./status-overlay.tsx";

/** child path → parent route, for registry routes that declare children (/admin, /super-admin). */
const PARENT_OF: ReadonlyMap<string, RouteDefinition> = new Map(
  flattenRoutes().flatMap((parent) => (parent.children ?? []).map((child) => [child.path, parent] as const)),
);

const rowBase =
  "group/row relative flex h-9 w-full items-center gap-3 rounded-lg px-2.5 text-left text-sm font-medium transition-colors " +
  "lg:collapsed:justify-center lg:collapsed:px-0";

function rowClass(active: boolean) {
  return cx(
    rowBase,
    active ? "bg-accent-soft text-accent-text" : "text-ink-muted hover:bg-sunken hover:text-ink",
  );
}

function Label({ children }: { children: ReactNode }) {
  return <span className="min-w-0 flex-1 truncate lg:collapsed:sr-only">{children}</span>;
}

function PlanBadgePill({ badge }: { badge: PlanBadge }) {
  return (
    <span className="shrink-0 rounded-full border border-accent-line bg-accent-soft px-1.5 py-px text-[10px] font-semibold uppercase tracking-wide text-accent-text lg:collapsed:hidden">
      {PLAN_BADGE_TEXT[badge]}
    </span>
  );
}

function LockedRow({ item }: { item: SidebarItem }) {
  const { access } = useAuth();
  const tipId = useId();
  const Icon = iconFor(item.icon);
  const route = flattenRoutes().find((r) => r.path === item.path);
  const target = route ? lockedItemTarget(access, route) : "/pricing";
  return (
    <li className="tooltip-host">
      <Link
        to={target}
        aria-describedby={tipId}
        title={`${item.label} — ${item.tooltip ?? ""}`}
        className={cx(rowBase, "text-ink-subtle hover:bg-sunken hover:text-ink")}
      >
        <Icon aria-hidden="true" className="size-4 shrink-0 opacity-70" />
        <Label>{item.label}</Label>
        {item.badge ? <PlanBadgePill badge={item.badge} /> : null}
        <Lock aria-hidden="true" className="size-3.5 shrink-0 text-ink-subtle lg:collapsed:hidden" />
      </Link>
      <span
        role="tooltip"
        id={tipId}
        className="tooltip bottom-full left-2 mb-1 rounded-md bg-zinc-900 px-2 py-1 text-xs font-medium text-white shadow-lg lg:collapsed:hidden dark:bg-zinc-100 dark:text-zinc-900"
      >
        {item.tooltip}
      </span>
    </li>
  );
}

function NavRow({ item }: { item: SidebarItem }) {
  const Icon = iconFor(item.icon);
  return (
    <li>
      <NavLink
        to={item.path}
        end
        title={item.label}
        className={({ isActive }) => rowClass(isActive && item.id !== "plan")}
      >
        <Icon aria-hidden="true" className="size-4 shrink-0" />
        <Label>{item.label}</Label>
        {item.badge ? <PlanBadgePill badge={item.badge} /> : null}
      </NavLink>
    </li>
  );
}

function ActionRow({ item }: { item: SidebarItem }) {
  const { signOut } = useAuth();
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  const Icon = iconFor(item.icon);
  if (item.action === "signout") {
    return (
      <li>
        <button
          type="button"
          title={item.label}
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void signOut();
          }}
          className={rowClass(false)}
        >
          <Icon aria-hidden="true" className="size-4 shrink-0" />
          <Label>{busy ? "Signing out…" : item.label}</Label>
        </button>
      </li>
    );
  }
  const here = `${location.pathname}${location.search}`;
  const onAuthPage = location.pathname.startsWith("/auth/");
  const to = item.action === "signin" && !onAuthPage ? signInUrl(here) : item.path;
  return (
    <li>
      <NavLink to={to} end title={item.label} className={({ isActive }) => rowClass(isActive)}>
        <Icon aria-hidden="true" className="size-4 shrink-0" />
        <Label>{item.label}</Label>
      </NavLink>
    </li>
  );
}

function ItemRow({ item }: { item: SidebarItem }) {
  if (item.locked) return <LockedRow item={item} />;
  if (item.action) return <ActionRow item={item} />;
  return <NavRow item={item} />;
}

/** A parent route (e.g. Admin) with its children as a click-toggled sub-menu. */
function ChildMenu({ parent, items }: { parent: RouteDefinition; items: SidebarItem[] }) {
  const location = useLocation();
  const inside = location.pathname === parent.path || location.pathname.startsWith(`${parent.path}/`);
  const [open, setOpen] = useState(inside);
  const menuId = useId();
  const Icon = iconFor(parent.icon);
  useEffect(() => {
    if (inside) setOpen(true);
  }, [inside]);
  return (
    <li>
      <div className="flex items-center gap-1">
        <NavLink to={parent.path} end title={parent.label} className={({ isActive }) => rowClass(isActive)}>
          <Icon aria-hidden="true" className="size-4 shrink-0" />
          <Label>{parent.label}</Label>
        </NavLink>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={menuId}
          aria-label={`${open ? "Hide" : "Show"} ${parent.label} pages`}
          onClick={() => setOpen(!open)}
          className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-ink-subtle hover:bg-sunken hover:text-ink lg:collapsed:hidden"
        >
          <ChevronDown
            aria-hidden="true"
            className={cx("size-4 transition-transform", !open && "-rotate-90")}
          />
        </button>
      </div>
      <ul
        id={menuId}
        hidden={!open}
        className="mt-0.5 ml-4 space-y-0.5 border-l border-line pl-2 lg:collapsed:ml-0 lg:collapsed:border-0 lg:collapsed:pl-0"
      >
        {items.map((item) => (
          <ItemRow key={item.id} item={item} />
        ))}
      </ul>
    </li>
  );
}

/** Groups items under their registry parent when the parent is itself a route with children. */
function groupItems(
  items: SidebarItem[],
): Array<SidebarItem | { parent: RouteDefinition; items: SidebarItem[] }> {
  const out: Array<SidebarItem | { parent: RouteDefinition; items: SidebarItem[] }> = [];
  for (const item of items) {
    const parent = item.locked ? undefined : PARENT_OF.get(item.path);
    if (!parent) {
      out.push(item);
      continue;
    }
    const group = out.find(
      (g): g is { parent: RouteDefinition; items: SidebarItem[] } => "parent" in g && g.parent === parent,
    );
    if (group) group.items.push(item);
    else out.push({ parent, items: [item] });
  }
  return out;
}

function Section({ section }: { section: SidebarSection }) {
  const [open, setOpen] = useState(true);
  const listId = useId();
  const grouped = groupItems(section.items);
  const list = (
    <ul id={listId} hidden={!open} className="space-y-0.5">
      {grouped.map((entry) =>
        "parent" in entry ? (
          <ChildMenu key={entry.parent.path} parent={entry.parent} items={entry.items} />
        ) : (
          <ItemRow key={entry.id} item={entry} />
        ),
      )}
    </ul>
  );
  if (!section.title) return <div className="px-3">{list}</div>;
  return (
    <div className="px-3">
      <h2 className="mb-1 lg:collapsed:hidden">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen(!open)}
          className="flex w-full items-center justify-between rounded-md px-2.5 py-1 text-xs font-semibold uppercase tracking-wider text-ink-subtle hover:text-ink"
        >
          {section.title}
          <ChevronDown
            aria-hidden="true"
            className={cx("size-3.5 transition-transform", !open && "-rotate-90")}
          />
        </button>
      </h2>
      <div aria-hidden="true" className="mx-2 mb-2 hidden border-t border-line lg:collapsed:block" />
      {list}
    </div>
  );
}

function SearchBox() {
  const { access } = useAuth();
  const { setCollapsed } = useSidebar();
  const navigate = useNavigate();
  const location = useLocation();
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const term = String(new FormData(event.currentTarget).get("search") ?? "");
    const destination = searchDestination(term, access, location.pathname);
    if (destination) navigate(destination);
  }

  return (
    <div className="px-3">
      <button
        type="button"
        aria-label="Search"
        title="Search"
        onClick={() => {
          setCollapsed(false);
          window.setTimeout(() => inputRef.current?.focus(), 50);
        }}
        className={cx(rowBase, "hidden text-ink-muted hover:bg-sunken hover:text-ink lg:collapsed:flex")}
      >
        <Search aria-hidden="true" className="size-4" />
      </button>
      <search className="block lg:collapsed:hidden">
        <form action="/" method="get" onSubmit={onSubmit} className="relative">
          <label htmlFor={inputId} className="sr-only">
            Search content
          </label>
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-ink-subtle"
          />
          <input
            ref={inputRef}
            id={inputId}
            name="search"
            type="search"
            placeholder={SEARCH_PLACEHOLDER}
            autoComplete="off"
            className="h-9 w-full rounded-lg border border-line bg-elevated pr-3 pl-8 text-sm text-ink placeholder:text-ink-subtle focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30"
          />
        </form>
      </search>
    </div>
  );
}

function UserChip() {
  const { user, isAuthenticated } = useAuth();
  if (!isAuthenticated) return null;
  // An audience page's neutral user has no name: the reader's own arrives once the page runs.
  const name = user.fullName ?? user.username ?? user.email ?? "Signed in";
  const initials = user.audience
    ? ""
    : name
        .split(/[\s@.]+/)
        .filter(Boolean)
        .slice(0, 2)
        .map((p) => p[0]?.toUpperCase())
        .join("");
  return (
    <Link
      to="/profile"
      title={`${name} · ${user.pricingTier}`}
      className="flex min-w-0 items-center gap-2.5 rounded-lg px-2 py-1.5 hover:bg-sunken lg:collapsed:justify-center lg:collapsed:px-0"
    >
      <span
        aria-hidden="true"
        className="flex size-7 shrink-0 items-center justify-center rounded-full bg-accent text-xs font-semibold text-accent-ink"
      >
        {initials || <UserRound className="size-4" />}
      </span>
      <span className="min-w-0 flex-1 lg:collapsed:sr-only">
        <span className="block truncate text-sm font-medium text-ink">{name}</span>
        <span className="block truncate text-xs text-ink-subtle">{user.pricingTier} plan</span>
      </span>
    </Link>
  );
}

export function Sidebar({
  productName,
  tagline,
  search = true,
  switchedOff = [],
}: {
  productName: string;
  tagline: string;
  /** The `search` feature flag: off hides the search box. */
  search?: boolean;
  /** Pages switched off by feature flags: left out of the navigation. */
  switchedOff?: readonly string[];
}) {
  const { access } = useAuth();
  const { collapsed, toggleCollapsed, mobileOpen, setMobileOpen } = useSidebar();
  const closeRef = useRef<HTMLButtonElement>(null);
  const sections = sidebarSections(access, undefined, switchedOff);

  useEffect(() => {
    if (!mobileOpen) return;
    // The drawer becomes visible as its transition starts; focus it on the next frames.
    const focusTimer = window.setTimeout(() => closeRef.current?.focus(), 50);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setMobileOpen(false);
        document.getElementById("menu-button")?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.clearTimeout(focusTimer);
      window.removeEventListener("keydown", onKey);
    };
  }, [mobileOpen, setMobileOpen]);

  return (
    <>
      <div
        aria-hidden="true"
        onClick={() => setMobileOpen(false)}
        className={cx(
          "fixed inset-0 z-40 bg-zinc-950/50 backdrop-blur-[1px] transition-opacity lg:hidden",
          mobileOpen ? "opacity-100" : "pointer-events-none opacity-0",
        )}
      />
      <aside
        id="app-sidebar"
        aria-label="Sidebar"
        className={cx(
          "app-sidebar fixed inset-y-0 left-0 z-50 flex max-w-[85vw] flex-col border-r border-line bg-surface transition-[width,transform,visibility] duration-200",
          "lg:max-w-none lg:translate-x-0 lg:visible",
          mobileOpen ? "translate-x-0 shadow-2xl" : "invisible -translate-x-full lg:shadow-none",
        )}
      >
        <div className="flex h-14 shrink-0 items-center gap-2 border-b border-line px-3 lg:collapsed:justify-center lg:collapsed:px-0">
          <Link
            to="/"
            className="flex min-w-0 flex-1 items-center gap-2.5 rounded-md px-1 lg:collapsed:flex-none lg:collapsed:px-0"
          >
            <BrandMark />
            <span className="min-w-0 lg:collapsed:sr-only">
              <span className="block truncate text-sm font-semibold text-ink">{productName}</span>
              <span className="block truncate text-xs text-ink-subtle">{tagline}</span>
            </span>
          </Link>
          <button
            ref={closeRef}
            type="button"
            aria-label="Close menu"
            onClick={() => {
              setMobileOpen(false);
              document.getElementById("menu-button")?.focus();
            }}
            className="inline-flex size-8 items-center justify-center rounded-md text-ink-muted hover:bg-sunken hover:text-ink lg:hidden"
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        </div>

        <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto overscroll-contain py-4">
          {search ? <SearchBox /> : null}
          <nav aria-label="Main" className="space-y-5">
            {sections.map((section) => (
              <Section key={section.id} section={section} />
            ))}
          </nav>
        </div>

        <div className="relative shrink-0 space-y-2 border-t border-line p-3">
          <StartupLoader placement="sidebar" />
          <UserChip />
          <div className="flex items-center justify-between gap-2 lg:collapsed:flex-col">
            <ThemeToggle className="shrink-0 lg:collapsed:hidden" />
            <StatusOverlay placement="sidebar" />
            <button
              type="button"
              onClick={toggleCollapsed}
              aria-label={collapsed ? "Expand sidebar" : "Collapse sidebar"}
              title={collapsed ? "Expand sidebar" : "Collapse sidebar"}
              aria-controls="app-sidebar"
              aria-expanded={!collapsed}
              className="hidden size-8 items-center justify-center rounded-md text-ink-muted hover:bg-sunken hover:text-ink lg:inline-flex"
            >
              {collapsed ? (
                <PanelLeftOpen aria-hidden="true" className="size-4" />
              ) : (
                <PanelLeftClose aria-hidden="true" className="size-4" />
              )}
            </button>
          </div>
        </div>
      </aside>
    </>
  );
}
