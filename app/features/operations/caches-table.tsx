/**
 * One app process's in-memory caches on /super-admin/infrastructure: entries and estimated bytes
 * against each cache's bounds, and its hit rate where the cache counts lookups.
 */
import type { ProcessView } from "../../../server/modules/operations/operations.service.ts";
import { formatBytes, formatPercent } from "./format.ts";
import { tdClass, thClass } from "./status-badge.tsx";

type CacheRow = ProcessView["caches"][number];

const bound = (value: string, max: string | null) => (max === null ? value : `${value} of ${max}`);

/** One process's in-memory caches: entries and estimated bytes against their bounds. */
export function CachesTable({ process }: { process: ProcessView }) {
  const rows = process.caches.map((cache: CacheRow) => {
    const lookups = (cache.hits ?? 0) + (cache.misses ?? 0);
    return {
      cache,
      entries: bound(String(cache.entries), cache.maxEntries ? String(cache.maxEntries) : null),
      size:
        cache.bytes === null
          ? "not measured"
          : bound(formatBytes(cache.bytes), cache.maxBytes === null ? null : formatBytes(cache.maxBytes)),
      hitRate:
        cache.hits === undefined
          ? "—"
          : `${formatPercent(lookups > 0 ? (cache.hits ?? 0) / lookups : null)} of ${lookups}`,
    };
  });
  return (
    <div className="overflow-x-auto" data-testid="caches" data-process-id={process.processId}>
      <table className="w-full text-left text-sm">
        <thead className="text-xs uppercase tracking-wide text-ink-subtle">
          <tr>
            {["Cache", "Entries", "Size (estimated)", "Hit rate"].map((h) => (
              <th key={h} scope="col" className={thClass}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {rows.map(({ cache, entries, size, hitRate }) => (
            <tr key={cache.name} data-testid="cache" data-cache={cache.name}>
              <td className={`${tdClass} min-w-48`}>
                <div className="text-ink">{cache.label}</div>
                <div className="font-mono text-xs text-ink-subtle">{cache.name}</div>
              </td>
              <td className={`${tdClass} whitespace-nowrap tabular-nums`}>{entries}</td>
              <td className={`${tdClass} whitespace-nowrap tabular-nums`}>{size}</td>
              <td className={`${tdClass} whitespace-nowrap tabular-nums`}>{hitRate}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
