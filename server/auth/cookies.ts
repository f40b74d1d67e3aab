/**
 * Cookie names and attributes of the identity cookies (decision 016). Over plain http (a laptop,
 * tests) they are `lumen.<name>`; when the public base URL is https they carry the `__Host-`
 * prefix, which browsers accept only with Secure, Path=/ and no Domain: the cookie cannot be set
 * or shadowed by another subdomain or by a plain-http page, and it is sent to this host only.
 */
import type { BetterAuthOptions } from "better-auth";

export const COOKIE_PREFIX = "lumen";
export const HOST_PREFIX = "__Host-";

/** Every cookie Better Auth (with our plugins) may set. */
const AUTH_COOKIES = [
  "session_token",
  "session_data",
  "account_data",
  "dont_remember",
  "two_factor",
  "trust_device",
  "state",
] as const;

export const secureBaseUrl = (baseURL: string) => baseURL.startsWith("https://");

/** The session cookie's name, as Better Auth and the session guard both write and read it. */
export function sessionCookieName(secure: boolean): string {
  return `${secure ? HOST_PREFIX : ""}${COOKIE_PREFIX}.session_token`;
}

/**
 * Better Auth's cookie options. Its own secure mode names cookies `__Secure-…`; for `__Host-` it
 * is switched off and every cookie is named explicitly, with Secure and Path=/ (Better Auth never
 * sets a Domain unless cross-subdomain cookies are enabled, which they are not).
 */
export function authCookieOptions(baseURL: string): NonNullable<BetterAuthOptions["advanced"]> {
  const secure = secureBaseUrl(baseURL);
  if (!secure) {
    return {
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/" },
    };
  }
  return {
    cookiePrefix: COOKIE_PREFIX,
    useSecureCookies: false,
    defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/", secure: true },
    cookies: Object.fromEntries(
      AUTH_COOKIES.map((name) => [name, { name: `${HOST_PREFIX}${COOKIE_PREFIX}.${name}` }]),
    ),
  };
}
