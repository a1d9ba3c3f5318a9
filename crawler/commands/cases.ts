import type { Command } from "commander";
import { action, intOption, loadDb, UserInputError } from "./util";

/** A case refusal of server/cases.ts (a wrong transition, an unknown user) as bad input: one line, exit 1. */
function asInput(e: unknown): never {
  if (e instanceof Error && e.name === "CaseError") throw new UserInputError(e.message);
  throw e;
}

/**
 * `campuswatch cases list | assign | status`: case handling (server/cases.ts) from the command line.
 * Changes are recorded in the audit log as the CLI's ("cli"); an assignment's notice is queued on
 * the topic's channels and sent by the scheduler's notify job (`campuswatch serve` or `run`).
 */
export function registerCaseCommands(program: Command) {
  const cases = program.command("cases").description("case handling: incidents and flags assigned to users (新建 → 处理中 → 已处置 / 误报)");
  cases
    .command("list")
    .description("list cases, open ones first and the earliest due first")
    .option("--user <name>", "only the cases assigned to this user (their 我的待办)")
    .option("--all", "also closed cases (已处置, 误报)")
    .option("--json", "one JSON object per line")
    .option("--limit <n>", "at most N cases", intOption("--limit", 1), 200)
    .action(
      action(async (o: { user?: string; all?: boolean; json?: boolean; limit: number }) => {
        const [db, { listCases, userIdByName }] = await Promise.all([loadDb(), import("../../server/cases")]);
        let assigneeId: number | undefined;
        if (o.user !== undefined) {
          const id = await userIdByName(db, o.user);
          if (id === null) throw new UserInputError(`no user named ${JSON.stringify(o.user)}`);
          assigneeId = id;
        }
        const rows = await listCases(db, { assigneeId, includeClosed: o.all }, { limit: o.limit });
        for (const r of rows) {
          if (o.json) console.log(JSON.stringify({ ...r, dueAt: r.dueAt?.toISOString() ?? null, updatedAt: r.updatedAt.toISOString() }));
          else
            console.log(
              [
                r.id,
                r.status,
                `${r.subject.kind} ${r.subject.id}`,
                r.assignee ?? "-",
                r.dueAt ? `due ${r.dueAt.toISOString()}${r.overdue ? " overdue" : ""}` : "no due time",
                r.topic ?? "-",
                r.title.replace(/\s+/g, " ").slice(0, 80) || "-",
              ].join("\t"),
            );
        }
        if (!o.json && rows.length === 0) console.log("no cases match");
      }),
    );
  cases
    .command("assign")
    .description("assign an incident or a flag to a user (makes its case on the first assignment); the user is notified on the topic's channels")
    .option("--incident <id>", "the incident", intOption("--incident", 1))
    .option("--flag <id>", "the flag", intOption("--flag", 1))
    .requiredOption("--user <name>", "the assignee (an enabled admin or reviewer)")
    .option("--due <time>", "due time: ISO 8601, or YYYY-MM-DDTHH:mm in Beijing time")
    .option("--note <text>", "what the assignee is asked to do", "")
    .action(
      action(async (o: { incident?: number; flag?: number; user: string; due?: string; note: string }) => {
        if ((o.incident === undefined) === (o.flag === undefined)) throw new UserInputError("give exactly one of --incident ID and --flag ID");
        const [db, { assignCase, parseDue, userIdByName }, { CLI_ACTOR }] = await Promise.all([
          loadDb(),
          import("../../server/cases"),
          import("../../lib/audit"),
        ]);
        const dueAt = o.due === undefined ? null : parseDue(o.due);
        if (o.due !== undefined && dueAt === null) throw new UserInputError(`--due: ${JSON.stringify(o.due)} is not a time (2026-12-05T18:00, ISO 8601)`);
        const assigneeId = await userIdByName(db, o.user);
        if (assigneeId === null) throw new UserInputError(`no user named ${JSON.stringify(o.user)}`);
        const subject = o.incident !== undefined ? ({ kind: "incident", id: o.incident } as const) : ({ kind: "flag", id: o.flag! } as const);
        const r = await assignCase(db, { subject, assigneeId, dueAt, note: o.note }, CLI_ACTOR).catch(asInput);
        console.log(`case ${r.caseId} ${r.created ? "created and assigned" : "reassigned"} to ${r.assignee}`);
        console.log(
          r.notified
            ? `notice queued on ${r.notificationIds.length} channel(s) of topic ${r.topic} (sent by the scheduler's notify job)`
            : "no notice: its topic has no notification channel",
        );
      }),
    );
  cases
    .command("status")
    .description("move a case: in_progress, resolved or false_positive (a closed case may be taken up again as in_progress)")
    .argument("<caseId>", "the case", intOption("caseId", 1))
    .argument("<status>", "in_progress | resolved | false_positive")
    .option("--note <text>", "what was done, what was concluded", "")
    .action(
      action(async (caseId: number, status: string, o: { note: string }) => {
        const [db, { setCaseStatus, CASE_STATES }, { CLI_ACTOR }] = await Promise.all([loadDb(), import("../../server/cases"), import("../../lib/audit")]);
        const to = CASE_STATES.find((s) => s === status);
        if (!to) throw new UserInputError(`status must be one of ${CASE_STATES.join(", ")} (got ${JSON.stringify(status)})`);
        await setCaseStatus(db, { caseId, status: to, note: o.note }, CLI_ACTOR).catch(asInput);
        console.log(`case ${caseId} is now ${to}`);
      }),
    );
}
