import { InvalidArgumentError, type Command } from "commander";
import { parseAuthorArg, type AuthorKey } from "../../lib/authors";
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
    .option(
      "--author <platform:id>",
      "only this author's posts and replies: the platform, a colon and the platform's author id (a Tieba portrait, a Weibo or Discuz! uid)",
      authorOption,
    )
    .action(
      action(async (o: { format: string; flagged?: boolean; account?: number; deleted?: boolean; author?: AuthorKey }) => {
        if (o.format !== "jsonl" && o.format !== "csv") throw new UserInputError(`--format must be jsonl or csv (got ${o.format})`);
        const [db, { exportPosts }] = await Promise.all([loadDb(), import("../../server/export")]);
        for await (const chunk of exportPosts(db, { format: o.format, flagged: o.flagged, accountId: o.account, deleted: o.deleted, author: o.author })) {
          if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once("drain", r));
        }
      }),
    );
}

/** commander parser of `--author PLATFORM:ID`: a bad value is a one-line usage error. */
function authorOption(value: string): AuthorKey {
  try {
    return parseAuthorArg(value);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
}
