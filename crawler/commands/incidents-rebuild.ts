import type { Command } from "commander";
import { action, loadDb } from "./util";

/**
 * `campuswatch incidents rebuild`: cluster every stored post into incidents again, keeping
 * reviewers' decisions (crawler/incidents/rebuild.ts). Added to the `incidents` command group,
 * which it creates when no other part has yet.
 */
export function registerIncidentRebuildCommand(program: Command): void {
  const group =
    program.commands.find((c) => c.name() === "incidents") ?? program.command("incidents").description("incidents (事件): posts clustered across platforms");
  group
    .command("rebuild")
    .description("cluster all stored posts into incidents again (pinned posts, renamed, handled and dismissed incidents are kept)")
    .option("--quiet", "print only the summary")
    .action(
      action(async (o: { quiet?: boolean }) => {
        const [db, { rebuildIncidents }] = await Promise.all([loadDb(), import("../incidents/rebuild")]);
        const r = await rebuildIncidents(db, { onProgress: o.quiet ? undefined : (m) => console.log(m) });
        console.log(
          `incidents rebuilt: ${r.posts} posts clustered; ${r.incidents} incidents (${r.open} open); kept ${r.keptMembers} members of ${r.keptIncidents} reviewed incidents; deleted ${r.deletedIncidents} old incidents`,
        );
      }),
    );
}
