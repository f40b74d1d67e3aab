import type { RouterContextProvider } from "react-router";
import { isDebugMode } from "../../core/index.ts";
import { requestMetaContext, servicesContext, userContext } from "./context.ts";
import { toClientUser } from "./session/auth-context.tsx";

/**
 * What the app shell (sidebar, status overlay, theme) needs: the root loader's data. The route
 * guard sends the same with a 403 it throws before any loader runs, so the 403 screen keeps the
 * sidebar.
 */
export function shellData(context: Readonly<RouterContextProvider>, url: URL) {
  const services = context.get(servicesContext);
  const user = context.get(userContext);
  const { nonce } = context.get(requestMetaContext);
  return {
    user: toClientUser(user),
    config: services.config,
    debug: isDebugMode(url.search, null),
    nonce,
  };
}

export type ShellData = ReturnType<typeof shellData>;
