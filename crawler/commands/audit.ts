import type { Command } from "commander";
import { action, intOption, loadDb, UserInputError } from "./util";

/**
 * A `--since` value: an ISO date or time (`2026-12-01`, `2026-12-01T08:00:00+08:00`) or a span
 * back from now (`30m`, `12h`, `7d`).
 */
export function parseSince(value: string, now = new Date()): Date {
  const span = /^(\d{1,6})([mhd])$/.exec(value.trim());
  if (span) return new Date(now.getTime() - Number(span[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[span[2] as "m" | "h" | "d"]);
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value.trim()) || Number.isNaN(d.getTime()))
    throw new UserInputError(`--since: ${JSON.stringify(value)} is neither a date (2026-12-01, ISO 8601) nor a span (30m, 12h, 7d)`);
  return d;
}

/** `campuswatch audit list`: the audit log (lib/audit.ts), newest first. Read only: entries are never edited. */
export function registerAuditCommands(program: Command) {
  const audit = program.command("audit").description("the audit log: who changed what, when (read only)");
  audit
    .command("list")
    .description("list audit entries, newest first")
    .option("--json", "one JSON object per line")
    .option("--since <when>", "only entries from then on: a date/time (ISO 8601) or a span back from now (30m, 12h, 7d)")
    .option("--kind <kind>", "only this kind (account, cookies, proxy, robots, topic, channel, samples, review, user, token, seed, case, incident)")
    .option("--actor <name>", 'only changes by this user name ("cli" for the command line)')
    .option("--limit <n>", "at most N entries", intOption("--limit", 1), 100)
    .action(
      action(async (o: { json?: boolean; since?: string; kind?: string; actor?: string; limit: number }) => {
        const since = o.since === undefined ? undefined : parseSince(o.since);
        const [db, { listAudit }] = await Promise.all([loadDb(), import("../../lib/audit")]);
        const rows = await listAudit(db, { since, kind: o.kind, actor: o.actor }, { take: o.limit });
        for (const r of rows) {
          if (o.json) console.log(JSON.stringify({ ...r, createdAt: r.createdAt.toISOString() }));
          else
            console.log(
              [
                r.createdAt.toISOString(),
                r.actor,
                r.kind,
                r.action,
                r.targetId ? `#${r.targetId}` : "-",
                r.target || "-",
                JSON.stringify(r.before),
                "→",
                JSON.stringify(r.after),
              ].join("\t"),
            );
        }
        if (!o.json && rows.length === 0) console.log("no audit entries match");
      }),
    );
}
