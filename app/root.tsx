import { type ReactNode, useContext, useEffect } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  UNSAFE_FrameworkContext,
  useLocation,
  useNavigate,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import {
  errorMessage,
  ForbiddenScreen,
  GenericErrorScreen,
  NotFoundScreen,
} from "./components/errors/error-screens.tsx";
import { themeBootstrapScript } from "./components/theme.tsx";
import {
  AppShell,
  ErrorShell,
  FALLBACK_PRODUCT_NAME,
  FALLBACK_TAGLINE,
} from "./features/layout/app-shell.tsx";
import { type ForbiddenPayload, guardMiddleware } from "./lib/guard.server.ts";
import { shellData } from "./lib/shell-data.server.ts";

export const middleware: Route.MiddlewareFunction[] = [guardMiddleware];

export async function loader({ context, url }: Route.LoaderArgs) {
  return shellData(context, url);
}

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.ico", sizes: "48x48" }];

export const meta: Route.MetaFunction = ({ error }) => {
  if (!error) return [];
  if (isRouteErrorResponse(error) && error.status === 403)
    return [{ title: `Access denied · ${FALLBACK_PRODUCT_NAME}` }];
  if (isRouteErrorResponse(error) && error.status === 404)
    return [{ title: `Page not found · ${FALLBACK_PRODUCT_NAME}` }];
  return [{ title: `Something went wrong · ${FALLBACK_PRODUCT_NAME}` }];
};

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const framework = useContext(UNSAFE_FrameworkContext);
  const nonce = data?.nonce || framework?.nonce || undefined;
  // Marks the document once React has hydrated (browser tests wait for it before clicking).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <script
          nonce={nonce}
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script built from constants
          dangerouslySetInnerHTML={{ __html: themeBootstrapScript() }}
        />
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh bg-canvas font-sans text-ink antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell user={loaderData.user} config={loaderData.config} debug={loaderData.debug}>
      <Outlet />
    </AppShell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<typeof loader>("root");
  const navigate = useNavigate();
  const location = useLocation();
  const retry = () => navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true });

  let body: ReactNode;
  if (isRouteErrorResponse(error) && error.status === 403) {
    const payload = (
      error.data && typeof error.data === "object" ? error.data : null
    ) as ForbiddenPayload | null;
    body = <ForbiddenScreen payload={payload} />;
  } else if (isRouteErrorResponse(error) && error.status === 404) {
    body = <NotFoundScreen />;
  } else if (isRouteErrorResponse(error)) {
    const message =
      typeof error.data === "string" && error.data
        ? error.data
        : error.statusText || "An unexpected error occurred";
    body = <GenericErrorScreen message={message} onRetry={retry} />;
  } else {
    body = <GenericErrorScreen message={errorMessage(error)} onRetry={retry} />;
  }

  // A 403 thrown by the route guard carries the shell's data (the root loader did not run).
  const forbiddenShell =
    isRouteErrorResponse(error) && error.status === 403
      ? (error.data as ForbiddenPayload | null)?.shell
      : undefined;
  const shell = data ?? forbiddenShell;
  if (shell) {
    return (
      <AppShell user={shell.user} config={shell.config} debug={shell.debug}>
        {body}
      </AppShell>
    );
  }
  return (
    <ErrorShell productName={FALLBACK_PRODUCT_NAME} tagline={FALLBACK_TAGLINE}>
      {body}
    </ErrorShell>
  );
}
