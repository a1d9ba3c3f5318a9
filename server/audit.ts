/**
 * The audit log's page and CSV export read their filters from the query string here (one parser,
 * so the export is exactly what the page shows). The entries themselves are lib/audit.ts's.
 */
import { shanghaiDayStart } from "../lib/time";
import type { AuditFilter } from "../lib/audit";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The page's filter form as an audit filter: who, kind, from day, to day (inclusive; Asia/Shanghai days). A malformed day is dropped and reported. */
export function parseAuditParams(params: Record<string, string | string[] | undefined>): { filter: AuditFilter; beforeId?: number; badDay: boolean } {
  const one = (k: string) => {
    const v = params[k];
    return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
  };
  const day = (k: string) => {
    const v = one(k);
    if (!v) return { ok: true as const };
    if (!DAY.test(v) || Number.isNaN(shanghaiDayStart(v).getTime())) return { ok: false as const };
    return { ok: true as const, value: v };
  };
  const since = day("since");
  const until = day("until");
  const before = Number(one("before"));
  return {
    filter: {
      actor: one("actor")?.slice(0, 100),
      kind: one("kind")?.slice(0, 40),
      since: since.value ? shanghaiDayStart(since.value) : undefined,
      // Inclusive: up to the start of the next day.
      until: until.value ? new Date(shanghaiDayStart(until.value).getTime() + 86_400_000) : undefined,
    },
    beforeId: Number.isInteger(before) && before > 0 ? before : undefined,
    badDay: !since.ok || !until.ok,
  };
}
