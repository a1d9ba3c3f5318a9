/**
 * `campuswatch`: the command-line interface. Each command group lives in crawler/commands/.
 * Commands print one line per fact and exit non-zero with a one-line reason on bad input.
 */
import { Command, CommanderError } from "commander";
import { registerDbCommands } from "./commands/db";
import { registerUserCommands } from "./commands/users";
import { registerAccountCommands } from "./commands/accounts";
import { registerServeCommand } from "./commands/serve";
import { registerTopicCommands } from "./commands/topics";
import { registerCrawlCommands } from "./commands/crawl";
import { registerPostCommands } from "./commands/posts";
import { registerRunCommand } from "./commands/run";
import { registerDiscoverCommand } from "./commands/discover";
import { registerWorkerCommand } from "./commands/worker";
import { registerJobCommands } from "./commands/jobs";
import { disconnectDb } from "../lib/db";

const program = new Command();
program
  .name("campuswatch")
  .description("CampusWatch: topic-focused monitoring of campus forums, Tieba, Weibo and blogs")
  .version("0.1.0")
  .showSuggestionAfterError(true)
  .configureOutput({ outputError: (str, write) => write(str.split("\n")[0] + "\n") });

registerDbCommands(program);
registerUserCommands(program);
registerAccountCommands(program);
registerServeCommand(program);
registerTopicCommands(program);

registerCrawlCommands(program);
registerPostCommands(program);
registerRunCommand(program);
registerWorkerCommand(program);
registerDiscoverCommand(program);
registerJobCommands(program);

// Unknown commands and bad options exit 1 with commander's one-line message.
program.exitOverride((err: CommanderError) => {
  if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") process.exit(0);
  process.exit(err.exitCode || 1);
});

try {
  await program.parseAsync(process.argv);
} finally {
  await disconnectDb().catch(() => undefined);
}
