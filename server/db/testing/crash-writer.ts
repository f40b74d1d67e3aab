/**
 * Test fixture (run as a child process by sqlite-durability.int.test.ts): opens the SQLite file
 * given as argv[2], migrates, then appends audit rows forever, printing each id to stdout only
 * after the insert returned (an acknowledged write). The test kills it with SIGKILL mid-stream.
 */
import { createDatabase } from "../database.ts";
import { migrateToLatest } from "../migrate.ts";

const path = process.argv[2];
if (!path) throw new Error("usage: crash-writer.ts <sqlite file>");
const database = createDatabase(path);
await migrateToLatest(database.db);
process.stdout.write("ready\n");
for (let i = 0; ; i++) {
  const id = `row-${process.pid}-${i}`;
  await database.db
    .insertInto("audit_log")
    .values({ id, at: new Date().toISOString(), action: "crash.test", details: JSON.stringify({ i }) })
    .execute();
  process.stdout.write(`${id}\n`);
}
