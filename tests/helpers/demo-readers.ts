/**
 * Signed-in demo readers for the integration suites: a session cookie and the user id of each
 * named demo account (`<who>@demo.local`), and an API key (scoped content:read) made by one of them,
 * for the unauthorized-access tests.
 */
import { DEMO_PASSWORD } from "../../server/db/seed/accounts.ts";
import { createReadKey } from "./auth.ts";
import { signIn, type TestServer } from "./test-server.ts";

export interface DemoReaders<W extends string> {
  /** Cookie header per signed-in account. */
  cookies: Record<W, string>;
  /** User id per signed-in account. */
  ids: Record<W, string>;
  /** An API key (content:read) of `key.owner`, named `key.name`. */
  apiKey: string;
}

export async function signInDemoReaders<W extends string>(
  server: TestServer,
  accounts: readonly W[],
  key: { owner: NoInfer<W>; name: string },
): Promise<DemoReaders<W>> {
  const cookies = {} as Record<W, string>;
  const ids = {} as Record<W, string>;
  for (const who of accounts) {
    cookies[who] = await signIn(server.url, `${who}@demo.local`, DEMO_PASSWORD);
    const row = await server.runtime.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", `${who}@demo.local`)
      .executeTakeFirstOrThrow();
    ids[who] = row.id;
  }
  const apiKey = await createReadKey(server.url, cookies[key.owner], key.name);
  return { cookies, ids, apiKey };
}
