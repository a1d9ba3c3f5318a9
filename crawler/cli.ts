/**
 * `campuswatch`: the command-line interface. Each command group lives in crawler/commands/.
 * Commands print one line per fact and exit non-zero with a one-line reason on bad input.
 *
 * Start-up is kept short (README "CLI start-up"): the command modules only declare commands and
 * options; what a command runs, and every heavy module (Prisma, nodejieba, Playwright, pg, cheerio),
 * is imported inside its action, so `--help` loads commander and little else.
 */
import { Command, CommanderError } from "commander";
import { CAMPUSWATCH_VERSION } from "../lib/version";
import { registerDbCommands } from "./commands/db";
import { registerUserCommands } from "./commands/users";
import { registerAccountCommands } from "./commands/accounts";
import { registerServeCommand } from "./commands/serve";
import { registerTopicCommands } from "./commands/topics";
import { registerSentimentCommands } from "./commands/sentiment";
import { registerCrawlCommands } from "./commands/crawl";
import { registerPostCommands } from "./commands/posts";
import { registerRunCommand } from "./commands/run";
import { registerDiscoverCommand } from "./commands/discover";
import { registerWorkerCommand } from "./commands/worker";
import { registerJobCommands } from "./commands/jobs";
import { registerSecretCommands } from "./commands/secrets";
import { registerEvidenceCommands } from "./commands/evidence";
import { registerAuditCommands } from "./commands/audit";
import { registerTokenCommands } from "./commands/tokens";
import { registerIncidentRebuildCommand } from "./commands/incidents-rebuild";
import { registerReportCommand } from "./commands/report";
import { registerIncidentCommands } from "./commands/incidents";
import { registerParseCommand } from "./commands/parse";
import { registerCaseCommands } from "./commands/cases";

// Before anything can create a file: the database, its WAL, the archive and the session secret are
// created readable by this user only (lib/private-files.ts says why). Here rather than through that
// module: the CLI's start-up loads nothing but commander (README "CLI start-up").
process.umask(0o077);

const program = new Command();
program
  .name("campuswatch")
  .description("CampusWatch: topic-focused monitoring of campus forums, Tieba, Weibo and blogs")
  .version(CAMPUSWATCH_VERSION)
  .showSuggestionAfterError(true)
  .configureOutput({ outputError: (str, write) => write(str.split("\n")[0] + "\n") });

registerDbCommands(program);
registerUserCommands(program);
registerAccountCommands(program);
registerServeCommand(program);
registerTopicCommands(program);
registerSentimentCommands(program);

registerCrawlCommands(program);
registerPostCommands(program);
registerRunCommand(program);
registerWorkerCommand(program);
registerDiscoverCommand(program);
registerJobCommands(program);
registerSecretCommands(program);
registerEvidenceCommands(program);
registerAuditCommands(program);
registerTokenCommands(program);
// The incidents group first: `incidents rebuild` joins it.
registerIncidentCommands(program);
registerIncidentRebuildCommand(program);
registerReportCommand(program);
registerParseCommand(program);
registerCaseCommands(program);

// Unknown commands and bad options exit 1 with commander's one-line message.
program.exitOverride((err: CommanderError) => {
  if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") process.exit(0);
  process.exit(err.exitCode || 1);
});

/** What a finished command may leave open: the process's own stdin/stdout/stderr. */
const STDIO_RESOURCES = new Set(["TTYWrap", "PipeWrap"]);

/**
 * Exit as soon as the command's work is done and nothing is left to run. Node would otherwise wait
 * for V8 to finish optimising, in the background, the Prisma query compiler's WebAssembly that the
 * command warmed up (0.1–0.25 s of `crawl once` on a busy 2-core machine), for code nobody will run.
 * Anything still pending — a timer, socket, child process, file operation, unflushed output or a
 * `beforeExit` listener — keeps the usual exit when the event loop is empty.
 */
function exitWhenIdle(): void {
  setImmediate(() => {
    const pending = process.getActiveResourcesInfo().filter((r) => !STDIO_RESOURCES.has(r));
    const stdio = process.getActiveResourcesInfo().length - pending.length;
    const flushed = process.stdout.writableLength === 0 && process.stderr.writableLength === 0;
    if (pending.length === 0 && stdio <= 3 && flushed && process.listenerCount("beforeExit") === 0) process.exit();
  });
}

try {
  await program.parseAsync(process.argv);
} finally {
  // Only a command that used the database loaded lib/db (it keeps its client on globalThis).
  if ("campuswatchDb" in globalThis) await (await import("../lib/db")).disconnectDb().catch(() => undefined);
}
exitWhenIdle();
