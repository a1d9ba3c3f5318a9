import type { Command } from "commander";
import type { IncidentDetail, IncidentStatus, IncidentSummary } from "../../server/incident-export";
import { action, intOption, listOption, loadDb, UserInputError } from "./util";

/** server/incident-export's INCIDENT_STATUSES, spelled out so that parsing options loads nothing else. */
const STATUSES = ["candidate", "open", "handled", "dismissed", "merged"] as const satisfies readonly IncidentStatus[];

/** The --status option: a comma-separated list of states, or "all". */
function statusesOf(value: string[] | undefined): IncidentStatus[] | undefined {
  if (!value) return undefined;
  if (value.length === 1 && value[0] === "all") return [...STATUSES];
  for (const s of value)
    if (!(STATUSES as readonly string[]).includes(s))
      throw new UserInputError(`--status must be "all" or a comma-separated list of ${STATUSES.join(", ")} (got ${s})`);
  if (value.length === 0) throw new UserInputError(`--status needs at least one of ${STATUSES.join(", ")}`);
  return value as IncidentStatus[];
}

/** The --topic option (name or id) as a topic id. */
async function topicIdOf(db: Awaited<ReturnType<typeof loadDb>>, topic: string | undefined): Promise<number | undefined> {
  if (topic === undefined) return undefined;
  const { findTopic } = await import("./topics-support");
  return (await findTopic(db, topic)).id;
}

/** One line per incident: id, status, heat, posts, flagged, platforms, first and last seen, title. */
function line(i: IncidentSummary): string {
  return [
    i.id,
    i.status,
    `heat ${i.heat.toFixed(1)}${i.bursting ? " bursting" : ""}`,
    `${i.size} posts`,
    `${i.flaggedCount} flagged`,
    i.platforms.join(",") || "-",
    `${i.firstSeenAt} .. ${i.lastSeenAt}`,
    i.topic ? `topic ${i.topic.name}` : "no topic",
    i.title || "(untitled)",
  ].join("\t");
}

/** An incident for a terminal: its figures, members and reviewers' actions. */
function detail(i: IncidentDetail): string[] {
  return [
    `incident ${i.id}: ${i.title || "(untitled)"}`,
    `status\t${i.status}${i.mergedIntoId !== null ? ` (into ${i.mergedIntoId})` : ""}${i.handledAt ? ` (handled ${i.handledAt})` : ""}`,
    `topic\t${i.topic?.name ?? "-"}`,
    `heat\t${i.heat.toFixed(1)}${i.bursting ? " (bursting)" : ""}`,
    `keywords\t${i.keywords.join(", ") || "-"}`,
    `platforms\t${i.platforms.join(", ") || "-"}`,
    `posts\t${i.size} in ${i.threadCount} threads by ${i.authorCount} authors; ${i.flaggedCount} flagged, ${i.negativeCount} negative`,
    `seen\t${i.firstSeenAt} .. ${i.lastSeenAt}`,
    `members (${i.members.length}):`,
    ...i.members.map(
      (m) =>
        `  ${m.postId}\t${m.platform}\t${m.kind}\t${m.publishedAt}\t${m.reason}${m.pinned ? " pinned" : ""}${m.postId === i.representativePostId ? " representative" : ""}` +
        `\t${m.flags.map((f) => `${f.topic}:${f.status}`).join(",") || "-"}\t${m.url}\t${m.title}`,
    ),
    `actions (${i.actions.length}):`,
    ...i.actions.map(
      (a) => `  ${a.createdAt}\t${a.kind}\t${a.userId !== null ? `user ${a.userId}` : "cli"}\t${JSON.stringify(a.detail)}${a.note ? `\t${a.note}` : ""}`,
    ),
  ];
}

/**
 * `campuswatch incidents …`: the incidents (事件) the clustering formed, for a terminal or a script.
 * A command group of its own file, so that more incident commands join it here.
 */
export function registerIncidentCommands(program: Command): Command {
  const incidents = program.command("incidents").description("incidents (事件): posts about one event across platforms; list, show, export");

  incidents
    .command("list")
    .description("incidents, hottest first (default: open and handled ones)")
    .option("--status <statuses>", `comma-separated: ${STATUSES.join(", ")}; or all`, listOption)
    .option("--topic <topic>", "only this topic (name or id)")
    .option("--limit <n>", "at most this many", intOption("--limit", 1), 50)
    .option("--json", "a JSON array")
    .action(
      action(async (o: { status?: string[]; topic?: string; limit: number; json?: boolean }) => {
        const statuses = statusesOf(o.status);
        const [db, { listIncidents }] = await Promise.all([loadDb(), import("../../server/incident-export")]);
        const rows = await listIncidents(db, { statuses, topicId: await topicIdOf(db, o.topic), take: o.limit });
        if (o.json) console.log(JSON.stringify(rows, null, 2));
        else if (rows.length === 0) console.log("no incidents");
        else for (const r of rows) console.log(line(r));
      }),
    );

  incidents
    .command("show <id>")
    .description("one incident: its figures, member posts and reviewers' actions")
    .option("--json", "as JSON")
    .action(
      action(async (id: string, o: { json?: boolean }) => {
        if (!/^\d+$/.test(id) || !Number.isSafeInteger(Number(id))) throw new UserInputError(`incident id must be a number (got ${id})`);
        const [db, { getIncident }] = await Promise.all([loadDb(), import("../../server/incident-export")]);
        const i = await getIncident(db, Number(id));
        if (!i) throw new UserInputError(`no incident ${id} (see: campuswatch incidents list)`);
        if (o.json) console.log(JSON.stringify(i, null, 2));
        else for (const l of detail(i)) console.log(l);
      }),
    );

  incidents
    .command("export")
    .description("print one JSON line per incident: id, title, keywords, firstSeenAt, lastSeenAt, heat, platforms, size, posts [{accountUrl, platformId}]")
    .option("--format <format>", "jsonl", "jsonl")
    .option("--status <statuses>", `comma-separated: ${STATUSES.join(", ")}; or all (default open,handled)`, listOption)
    .option("--topic <topic>", "only this topic (name or id)")
    .action(
      action(async (o: { format: string; status?: string[]; topic?: string }) => {
        if (o.format !== "jsonl") throw new UserInputError(`--format must be jsonl (got ${o.format})`);
        const statuses = statusesOf(o.status);
        const [db, { exportIncidents }] = await Promise.all([loadDb(), import("../../server/incident-export")]);
        for await (const chunk of exportIncidents(db, { statuses, topicId: await topicIdOf(db, o.topic) })) {
          if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once("drain", r));
        }
      }),
    );
  return incidents;
}
