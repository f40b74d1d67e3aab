/**
 * 100,000 (or `count`) users in one SQL statement per table, for the /admin/users scale test
 * (tests/integration/admin-users-scale.test.ts) and the bench's "users search": ids su000001…,
 * e-mails person<i>@scale.test, names "Person <n>", a third never signed in, every 97th suspended,
 * every 11th with two-factor on, every 10th in individual-pro (the rest individual-free), every
 * 50th a member of the organisation "scale". Then ANALYZE.
 */
import { type Kysely, sql } from "kysely";
import type { Dialect } from "../server/db/dialect.ts";
import type { DB } from "../server/db/schema.ts";

/** Seeds `count` users, every 10th Pro by group, every 50th in org-scale, in one statement each. */
export async function seedScaleUsers(db: Kysely<DB>, dialect: Dialect, count: number): Promise<void> {
  const pg = dialect === "postgres";
  for (const name of ["individual-free", "individual-pro", "org-scale", "org-scale-admin"]) {
    await sql`insert into "group" (name, precedence) values (${name}, 0) on conflict do nothing`.execute(db);
  }
  await sql`insert into organization (id, name, slug, "createdAt") values ('org-scale-id', 'Scale Co', 'scale', ${
    pg ? sql`now()` : sql`'2026-01-01T00:00:00.000Z'`
  }) on conflict do nothing`.execute(db);
  if (pg) {
    await sql`insert into "user" (id, name, email, username, "emailVerified", "isActive", "createdAt", "updatedAt", "lastLoginAt", "twoFactorEnabled")
      select 'su' || lpad(i::text, 6, '0'), 'Person ' || (i * 7919 % ${count}), 'person' || i || '@scale.test', 'person' || i,
        true, i % 97 <> 0, to_timestamp(1700000000 + i * 60), to_timestamp(1700000000 + i * 60),
        case when i % 3 = 0 then null else to_char(to_timestamp(1750000000 + (i * 7 % ${count}) * 60) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') end,
        i % 11 = 0
      from generate_series(1, ${count}) as i`.execute(db);
  } else {
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
      insert into "user" (id, name, email, username, "emailVerified", "isActive", "createdAt", "updatedAt", "lastLoginAt", "twoFactorEnabled")
      select 'su' || printf('%06d', i), 'Person ' || (i * 7919 % ${count}), 'person' || i || '@scale.test', 'person' || i,
        1, i % 97 <> 0, strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i * 60, 'unixepoch'), strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i * 60, 'unixepoch'),
        case when i % 3 = 0 then null else strftime('%Y-%m-%dT%H:%M:%fZ', 1750000000 + (i * 7 % ${count}) * 60, 'unixepoch') end,
        i % 11 = 0
      from n`.execute(db);
  }
  const at = "2026-01-01T00:00:00.000Z";
  await sql`insert into user_group ("userId", "groupName", "createdAt")
    select id, case when substr(id, 3) like '%0' then 'individual-pro' else 'individual-free' end, ${at} from "user" where id like 'su%'`.execute(
    db,
  );
  await sql`insert into user_group ("userId", "groupName", "createdAt")
    select id, 'org-scale', ${at} from "user" where id like 'su%' and (substr(id, 3) like '%00' or substr(id, 3) like '%50')`.execute(
    db,
  );
  await sql.raw("analyze").execute(db);
}
