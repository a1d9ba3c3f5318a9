import type { Command } from "commander";
import { action, UserInputError } from "./util";

/**
 * `campuswatch parse FILE --platform P [--kind K] [--url U]`: a saved page or API answer read by
 * the product's own adapter code (no network), printed as the posts and replies a crawl would
 * store. What a user attaches to a bug report, and how captures are replayed.
 *
 * Its `--help` lists every platform's kinds, read from the adapters: commander's own help is
 * turned off here so that the adapters (cheerio…) load only when that help is asked for, not at
 * every start of the CLI (README "CLI start-up").
 */
export function registerParseCommand(program: Command) {
  const parse = program
    .command("parse")
    .description("parse a saved page or API answer with the adapter's own code; print the posts and replies as JSON Lines, then the warnings")
    .argument("[file]", "the saved page or API answer")
    .option("--platform <id>", "the platform the file is from")
    .option("--kind <kind>", "what the file is (see the list below); guessed from the content when absent")
    .option("--url <url>", "the address the file was saved from (ids and links are read from it)")
    .option("--now <iso>", "the clock relative and year-less dates are read against (default: now)")
    .helpOption(false)
    .option("-h, --help", "display help for command");
  parse.action(
    action(async (file: string | undefined, o: { platform?: string; kind?: string; url?: string; now?: string; help?: boolean }) => {
      const support = await import("./parse-support");
      if (o.help) {
        process.stdout.write(parse.helpInformation() + "\n" + support.captureKindsHelp());
        return;
      }
      if (file === undefined) throw new UserInputError("missing FILE: campuswatch parse FILE --platform P [--kind K] [--url U]");
      if (o.platform === undefined) throw new UserInputError("missing --platform (campuswatch parse --help lists them)");
      const lines = await support.parseCaptureFile({ file, platform: o.platform, kind: o.kind, url: o.url, now: o.now });
      for (const line of lines) {
        if (!process.stdout.write(line + "\n")) await new Promise((r) => process.stdout.once("drain", r));
      }
    }),
  );
}
