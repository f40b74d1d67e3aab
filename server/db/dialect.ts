import { type Kysely, PostgresAdapter } from "kysely";

export type Dialect = "sqlite" | "postgres";

/** Which dialect a Kysely instance (or transaction) talks to. */
// biome-ignore lint/suspicious/noExplicitAny: works for any database type
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

/** `postgres://…` and `postgresql://…` select PostgreSQL; anything else is a SQLite path. */
export function dialectFromUrl(url: string): Dialect {
  return /^postgres(ql)?:\/\//i.test(url) ? "postgres" : "sqlite";
}
