import type { Command } from "commander";
import { action, intOption, loadDb, UserInputError } from "./util";

/** `campuswatch posts export`. */
export function registerPostCommands(program: Command) {
  const posts = program.command("posts").description("stored posts and replies");
  posts
    .command("export")
    .description("print one record per post or reply (JSONL or CSV) on stdout")
    .option("--format <format>", "jsonl | csv", "jsonl")
    .option("--flagged", "only posts with a flag")
    .option("--account <id>", "only this account", intOption("--account", 1))
    .option("--deleted", "only posts and replies found deleted on the platform")
    .action(
      action(async (o: { format: string; flagged?: boolean; account?: number; deleted?: boolean }) => {
        if (o.format !== "jsonl" && o.format !== "csv") throw new UserInputError(`--format must be jsonl or csv (got ${o.format})`);
        const [db, { exportPosts }] = await Promise.all([loadDb(), import("../../server/export")]);
        for await (const chunk of exportPosts(db, { format: o.format, flagged: o.flagged, accountId: o.account, deleted: o.deleted })) {
          if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once("drain", r));
        }
      }),
    );
}
