import type { Kysely } from "kysely";

/**
 * Runs `fn` in a transaction, or directly when `db` already is one (Kysely does not nest
 * transactions), so repositories can group writes whether or not the caller opened one.
 */
export async function inTransaction<D, T>(db: Kysely<D>, fn: (trx: Kysely<D>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute(fn);
}
