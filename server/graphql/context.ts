/**
 * What every resolver receives: who is asking (the request's credential, for body links, and the
 * actor every service operation takes), the services, and this request's data loaders.
 */
import type { Credential } from "../auth/identity.ts";
import type { Actor } from "../modules/actor.ts";
import type { BodyLinkIssuer } from "../modules/content/body-links.ts";
import type { RateUnits, RateVerdict } from "../modules/rate-limits/rate-limits.ts";
import type { GraphQLServices } from "./graphql-services.ts";
import type { Loaders } from "./loaders.ts";

export type { GraphQLServices } from "./graphql-services.ts";

/** Set by the HTTP handler for each request (`http.ts`). */
export interface GraphQLServerContext {
  /** The request's credential (session, bearer, API key, service or visitor): body links bind to it. */
  identity: Credential;
  /** The request's actor, as the services take it (built by identity with the credential). */
  actor: Actor;
  services: GraphQLServices;
  /** Issues body links (runtime.identity, runtime.bodyLinks, runtime.logger). */
  links: BodyLinkIssuer;
  /** Mutations with a session cookie need this app's Origin (or Referer): the CSRF check. */
  sameOrigin: boolean;
  /**
   * Charges the operation's cost, writes and comments to the caller's rate limits (decision 014);
   * `refused` is set when they refuse it (the HTTP answer becomes 429 with Retry-After).
   */
  rateLimit?: {
    charge(units: RateUnits): Promise<RateVerdict>;
    verdict?: RateVerdict;
    /**
     * What was charged for the operation, its kind and its root fields ("*" for a fragment at the
     * root): the visitors' API cache reads them (decision 025).
     */
    charged?: RateUnits & { operation: "query" | "mutation" | "subscription"; rootFields: string[] };
  };
}

export type GraphQLContext = GraphQLServerContext & { loaders: Loaders };
