/**
 * Every migration, statically imported so they survive bundling. Kysely applies them in the
 * order of their names; never rename or edit an applied migration, add a new one.
 */
import type { Migration } from "kysely";
import { migration as m001 } from "./001-identity.ts";
import { migration as m002 } from "./002-content.ts";
import { migration as m003 } from "./003-repositories.ts";
import { migration as m004 } from "./004-audit.ts";
import { migration as m005 } from "./005-login-throttle.ts";
import { migration as m006 } from "./006-api-credentials.ts";
import { migration as m007 } from "./007-organization-invitations.ts";
import { migration as m008 } from "./008-mfa.ts";
import { migration as m009 } from "./009-search.ts";
import { migration as m010 } from "./010-engagement.ts";
import { migration as m011 } from "./011-content-revision.ts";
import { migration as m012 } from "./012-graphql-indexes.ts";
import { migration as m013 } from "./013-repository-sources.ts";
import { migration as m015 } from "./015-media-objects.ts";
import { migration as m017 } from "./017-session-family.ts";
import { migration as m018 } from "./018-api-rate-limits.ts";
import { migration as m020 } from "./020-phone-and-last-login.ts";
import { migration as m021 } from "./021-content-studio.ts";
import { migration as m022 } from "./022-media-details.ts";
import { migration as m023 } from "./023-billing.ts";
import { migration as m024 } from "./024-system-settings.ts";
import { migration as m025 } from "./025-audit-indexes.ts";
import { migration as m026 } from "./026-user-admin-indexes.ts";
import { migration as m027 } from "./027-analytics.ts";
import { migration as m028 } from "./028-category-order.ts";
import { migration as m029 } from "./029-service-credential-rotation.ts";
import { migration as m030 } from "./030-process-heartbeat.ts";
import { migration as m031 } from "./031-community.ts";
import { migration as m032 } from "./032-bookmarks.ts";
import { migration as m033 } from "./033-certificates.ts";
import { migration as m034 } from "./034-notifications.ts";
import { migration as m035 } from "./035-one-open-checkout.ts";
import { migration as m036 } from "./036-content-list-index.ts";
import { migration as m037 } from "./037-identity-revision.ts";
import { migration as m038 } from "./038-process-caches.ts";
import { migration as m039 } from "./039-search-newest.ts";
import { migration as m041 } from "./041-shared-work.ts";
import { migration as m042 } from "./042-revision-notify.ts";
import { migration as m043 } from "./043-webhooks.ts";
import { migration as m044 } from "./044-content-freshness.ts";
import { migration as m045 } from "./045-import-records.ts";

export const migrations: Record<string, Migration> = {
  "001-identity": m001,
  "002-content": m002,
  "003-repositories": m003,
  "004-audit": m004,
  "005-login-throttle": m005,
  "006-api-credentials": m006,
  "007-organization-invitations": m007,
  "008-mfa": m008,
  "009-search": m009,
  "010-engagement": m010,
  "011-content-revision": m011,
  "012-graphql-indexes": m012,
  "013-repository-sources": m013,
  "015-media-objects": m015,
  "017-session-family": m017,
  "018-api-rate-limits": m018,
  "020-phone-and-last-login": m020,
  "021-content-studio": m021,
  "022-media-details": m022,
  "023-billing": m023,
  "024-system-settings": m024,
  "025-audit-indexes": m025,
  "026-user-admin-indexes": m026,
  "027-analytics": m027,
  "028-category-order": m028,
  "029-service-credential-rotation": m029,
  "030-process-heartbeat": m030,
  "031-community": m031,
  "032-bookmarks": m032,
  "033-certificates": m033,
  "034-notifications": m034,
  "035-one-open-checkout": m035,
  "036-content-list-index": m036,
  "037-identity-revision": m037,
  "038-process-caches": m038,
  "039-search-newest": m039,
  "041-shared-work": m041,
  "042-revision-notify": m042,
  "043-webhooks": m043,
  "044-content-freshness": m044,
  "045-import-records": m045,
};
