import { createContext } from "react-router";
import type { UserContext } from "../../core/index.ts";
import type { Actor } from "../../server/modules/actor.ts";
import type { AppServices } from "../../server/services.ts";

/**
 * Request-scoped values the HTTP server hands to React Router. The server reads these
 * objects from the built entry module (`build.entry.module.appContexts`) so that it sets
 * exactly the instances that the bundled loaders and middleware read.
 */
export const servicesContext = createContext<AppServices>();
/** The signed-in user's claims, for display and the route guard (the actor's `context`). */
export const userContext = createContext<UserContext>();
/** Who is asking, as every service operation takes it (built once per request by identity). */
export const actorContext = createContext<Actor>();

export interface RequestMeta {
  /** Nonce for inline scripts (theme bootstrap), matching the Content-Security-Policy. */
  nonce: string;
  /** The client address as the server saw it (never shown to other users). */
  clientIp: string;
  /**
   * Set by the server for a signed-in reader's content page (decision 039): the page's loader sets
   * `shareable` when the page holds nothing a neutral audience render would get wrong (no signed
   * media links), so the server may store the audience's render of it.
   */
  audience?: { shareable: boolean };
}
export const requestMetaContext = createContext<RequestMeta>({ nonce: "", clientIp: "" });

export const appContexts = {
  services: servicesContext,
  user: userContext,
  actor: actorContext,
  requestMeta: requestMetaContext,
};
export type AppContexts = typeof appContexts;
