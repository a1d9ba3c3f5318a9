import type { Command } from "commander";
import fs from "node:fs";
import os from "node:os";
import { PLATFORMS, type Platform } from "../../lib/platforms";
import { action, durationOption, intOption, loadDb, UserInputError } from "./util";
import { CLI_ACTOR } from "../../lib/audit";

/** What the account commands run on, loaded when one runs (not when the CLI starts). */
async function load() {
  const [db, accounts, access, proxy, proxyUrl] = await Promise.all([
    loadDb(),
    import("../../server/accounts"),
    import("../../server/account-access"),
    import("../../server/account-proxy"),
    import("../fetch/proxy-url"),
  ]);
  return { db, ...accounts, ...access, ...proxy, ...proxyUrl };
}

/** The options of `accounts set`. */
interface SetOptions {
  name?: string;
  cron?: string;
  enabled?: boolean;
  disabled?: boolean;
  ocr?: boolean;
  fetchMode?: string;
  backfillDays?: number | "none";
  backfillPages?: number | "none";
  recheckDays?: number;
  adaptive?: boolean;
  minInterval?: number;
  maxInterval?: number;
  cookieFile?: string;
  cookie?: string;
  clearCookies?: boolean;
  robots?: string;
  proxy?: string;
  clearProxy?: boolean;
}

/**
 * A limit option: a whole number from 1, or "none" (no limit, stored as null). The parser keeps
 * "none" as a word: commander turns a parser's null into an empty string.
 */
function limitOption(name: string) {
  const int = intOption(name, 1);
  return (value: string): number | "none" => (value.trim().toLowerCase() === "none" ? "none" : int(value));
}

/** A {@link limitOption}'s value as the column stores it. */
const limitValue = (v: number | "none" | undefined) => (v === "none" ? null : v);

/** `campuswatch accounts add|list|set|remove`. */
export function registerAccountCommands(program: Command) {
  const accounts = program.command("accounts").description("monitored accounts (blogs, Weibo users, forum boards, Tieba bars)");
  accounts
    .command("add")
    .description("register an account by its entry (listing) URL; the platform is recognised from the URL")
    .argument("<url>", "entry URL, e.g. https://tieba.baidu.com/f?kw=南京大学")
    .option("--name <name>", "display name")
    .option("--platform <platform>", `${PLATFORMS.join(" | ")} (overrides recognition)`)
    .option("--cron <expr>", "crawl interval as a cron expression (Asia/Shanghai)")
    .option("--fetch-mode <mode>", "auto | http | browser", "auto")
    .option("--backfill-days <n>", "first crawl goes back at most N days", intOption("--backfill-days", 1))
    .option("--backfill-pages <n>", "first crawl reads at most N list pages", intOption("--backfill-pages", 1))
    .option("--recheck-days <n>", "re-open threads of the last N days to catch edits", intOption("--recheck-days", 0))
    .option("--ocr", "read text in images with tesseract")
    .option("--disabled", "register without scheduling")
    .option("--robots <policy>", "obey (default) or ignore robots.txt Disallow rules, for boards you run or may crawl; Crawl-delay is always honoured")
    .action(
      action(async (url: string, o: Record<string, string | number | boolean | undefined>) => {
        const { db, createAccount, parseRobotsPolicy, setRobotsPolicy } = await load();
        // Refused before anything is created.
        if (o.robots !== undefined) parseRobotsPolicy(String(o.robots));
        const a = await createAccount(
          db,
          {
            url,
            name: o.name as string | undefined,
            platform: o.platform as Platform | undefined,
            cron: o.cron as string | undefined,
            fetchMode: o.fetchMode as "auto",
            backfillDays: o.backfillDays,
            backfillPages: o.backfillPages,
            recheckDays: o.recheckDays,
            ocr: Boolean(o.ocr),
            enabled: !o.disabled,
          },
          CLI_ACTOR,
        );
        if (o.robots !== undefined && parseRobotsPolicy(String(o.robots)) === "ignore") await setRobotsPolicy(db, a.id, "ignore", cliUser(), CLI_ACTOR);
        console.log(`added ${a.platform} account ${a.id} "${a.name}" (${a.entryUrl}), cron "${a.cron}"`);
      }),
    );
  accounts
    .command("list")
    .description("list accounts with their status")
    .option("--json", "one JSON object per line")
    .action(
      action(async (o: { json?: boolean }) => {
        const { db, listAccounts } = await load();
        const rows = await listAccounts(db);
        for (const a of rows) {
          if (o.json) console.log(JSON.stringify(a));
          else console.log([a.id, a.platform, a.enabled ? "on" : "off", a.cron, a.status, `${a.postCount} posts`, a.name, a.entryUrl].join("\t"));
        }
        if (!o.json && rows.length === 0) console.log("no accounts yet: campuswatch accounts add <url>");
      }),
    );
  accounts
    .command("set")
    .description(
      "change an account: name, interval, schedule, OCR, fetch mode, backfill and re-check (as at `accounts add`), and how it reaches its platform: login cookies (stored encrypted, never printed), proxy, robots.txt policy",
    )
    .argument("<id>", "account id", intOption("id", 1))
    .option("--name <name>", "display name")
    .option("--cron <expr>", "crawl interval as a cron expression (Asia/Shanghai)")
    .option("--enabled", "schedule the account's crawls")
    .option("--disabled", "stop scheduling its crawls (nothing is deleted)")
    .option("--ocr", "read text in images with tesseract")
    .option("--no-ocr", "stop reading text in images")
    .option("--fetch-mode <mode>", "auto | http | browser")
    .option("--backfill-days <n>", "a first crawl goes back at most N days (none: no limit)", limitOption("--backfill-days"))
    .option("--backfill-pages <n>", "a first crawl reads at most N list pages (none: no limit)", limitOption("--backfill-pages"))
    .option("--recheck-days <n>", "re-open threads of the last N days to catch edits (0: off)", intOption("--recheck-days", 0))
    .option("--adaptive", "poll between --min-interval and --max-interval by how often it posts (--cron sets the base)")
    .option("--no-adaptive", "poll on --cron alone")
    .option("--min-interval <duration>", "adaptive: shortest interval (90s, 2m, 1h; at least 30s)", durationOption("--min-interval"))
    .option("--max-interval <duration>", "adaptive: longest interval (up to 7d)", durationOption("--max-interval"))
    .option(
      "--cookie-file <file>",
      "a Netscape cookies.txt, a browser extension's JSON export, or a file holding a Cookie header value; - reads standard input",
    )
    .option("--cookie <value>", "a Cookie header value (name=value; …); lands in shell history: prefer --cookie-file - (standard input)")
    .option("--clear-cookies", "forget the account's login cookies")
    .option(
      "--proxy <url>",
      "crawl this account through its own proxy: http://, https://, socks5:// or socks5h://[user:password@]host:port (stored encrypted, shown with the password masked)",
    )
    .option("--clear-proxy", "remove the account's own proxy (CAMPUSWATCH_PROXY applies again, if set)")
    .option("--robots <policy>", "obey or ignore robots.txt Disallow rules (ignore: for boards you run or may crawl; who and when is recorded)")
    .action(
      action(async (id: number, o: SetOptions) => {
        const {
          db,
          accountSettingsSchema,
          changeAccountSettings,
          parseProxyUrl,
          ProxyUrlError,
          clearAccountProxy,
          setAccountProxy,
          parseRobotsPolicy,
          setRobotsPolicy,
          clearAccountCookies,
          setAccountCookies,
        } = await load();
        const given = [o.cookieFile, o.cookie, o.clearCookies].filter((x) => x !== undefined).length;
        const proxyGiven = o.proxy !== undefined || o.clearProxy === true;
        if (o.enabled && o.disabled) throw new UserInputError("give one of --enabled and --disabled");
        const settings = Object.fromEntries(
          Object.entries({
            name: o.name,
            cron: o.cron,
            enabled: o.enabled ? true : o.disabled ? false : undefined,
            ocr: o.ocr,
            fetchMode: o.fetchMode,
            backfillDays: limitValue(o.backfillDays),
            backfillPages: limitValue(o.backfillPages),
            recheckDays: o.recheckDays,
            adaptive: o.adaptive,
            minIntervalS: o.minInterval,
            maxIntervalS: o.maxInterval,
          }).filter(([, v]) => v !== undefined),
        );
        const settingsGiven = Object.keys(settings).length > 0;
        if (given === 0 && o.robots === undefined && !proxyGiven && !settingsGiven) {
          throw new UserInputError(
            "nothing to set: give --name, --cron, --enabled, --disabled, --ocr, --no-ocr, --fetch-mode, --backfill-days, --backfill-pages, --recheck-days, --adaptive, --no-adaptive, --min-interval, --max-interval, --cookie-file, --cookie, --clear-cookies, --robots, --proxy or --clear-proxy",
          );
        }
        // Refused before anything is changed: a bad value names its option.
        const checked = accountSettingsSchema.safeParse(settings);
        if (!checked.success) {
          const issue = checked.error.issues[0]!;
          const option = `--${String(issue.path[0] ?? "")
            .replace(/IntervalS$/, "Interval")
            .replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
          throw new UserInputError(`${option}: ${issue.message}`);
        }
        if (given > 1) throw new UserInputError("give one of --cookie-file, --cookie and --clear-cookies");
        if (o.proxy !== undefined && o.clearProxy) throw new UserInputError("give one of --proxy and --clear-proxy");
        // A bad proxy URL is refused before anything (robots, cookies) is changed.
        if (o.proxy !== undefined) {
          try {
            parseProxyUrl(o.proxy);
          } catch (e) {
            if (e instanceof ProxyUrlError) throw new UserInputError(`--proxy: ${e.message}`);
            throw e;
          }
        }
        if (settingsGiven) {
          const a = await changeAccountSettings(db, id, settings, CLI_ACTOR);
          console.log(
            `account ${id}: ${a.name}, cron "${a.cron}", ${a.enabled ? "enabled" : "disabled"}, OCR ${a.ocr ? "on" : "off"}, fetch mode ${a.fetchMode}, backfill ${a.backfillDays ?? "all"} days / ${a.backfillPages ?? "all"} pages, re-check ${a.recheckDays} days`,
          );
          if (given === 0 && o.robots === undefined && !proxyGiven) return;
        }
        if (proxyGiven) {
          if (o.clearProxy) {
            await clearAccountProxy(db, id, CLI_ACTOR);
            console.log(`account ${id}: own proxy removed`);
          } else {
            const { display } = await setAccountProxy(db, id, o.proxy ?? "", CLI_ACTOR);
            console.log(`account ${id}: crawled through ${display} (stored encrypted)`);
          }
          if (given === 0 && o.robots === undefined) return;
        }
        if (o.robots !== undefined) {
          const policy = parseRobotsPolicy(o.robots);
          await setRobotsPolicy(db, id, policy, cliUser(), CLI_ACTOR);
          console.log(`account ${id}: robots.txt ${policy === "ignore" ? "Disallow rules ignored (Crawl-delay still honoured)" : "obeyed"}`);
          if (given === 0) return;
        }
        if (o.clearCookies) {
          await clearAccountCookies(db, id, CLI_ACTOR);
          console.log(`account ${id}: login cookies removed`);
          return;
        }
        let text = o.cookie ?? "";
        if (o.cookie !== undefined) {
          // A value on the command line stays in the shell's history file and in `ps` while this runs.
          console.error(
            "warning: --cookie leaves the cookie value in your shell history; next time use --cookie-file - and paste or pipe the value on standard input",
          );
        }
        if (o.cookieFile === "-") {
          if (process.stdin.isTTY) console.error("paste the cookies, then press Ctrl-D on a line of its own:");
          text = await readStdin();
        } else if (o.cookieFile) {
          try {
            text = fs.readFileSync(o.cookieFile, "utf8");
          } catch (e) {
            throw new UserInputError(`cannot read ${o.cookieFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
          }
        }
        const r = await setAccountCookies(db, id, text, CLI_ACTOR);
        console.log(`account ${id}: ${r.count} login cookies stored encrypted (read as ${r.format})`);
        for (const s of r.summary) console.log(`  ${s.domain}\t${s.count} cookies\t${s.expiresAt ? `expire ${s.expiresAt}` : "session"}`);
        const skipped = Object.entries(r.skipped);
        if (skipped.length > 0)
          console.log(
            `  left out ${skipped.reduce((n, [, c]) => n + c, 0)} cookies of other sites (${skipped
              .map(([d]) => d)
              .slice(0, 5)
              .join(", ")}${skipped.length > 5 ? ", …" : ""})`,
          );
        if (r.expired > 0) console.log(`  left out ${r.expired} expired cookies`);
      }),
    );
  accounts
    .command("remove")
    .description("delete an account together with its posts and crawl history")
    .argument("<id>", "account id", intOption("id", 1))
    .action(
      action(async (id: number) => {
        const { db, removeAccount } = await load();
        const { account, posts } = await removeAccount(db, id, CLI_ACTOR);
        console.log(`removed account ${account.id} "${account.name}" and its ${posts} posts`);
      }),
    );
}

/** Who set something from the command line: recorded with the robots policy. */
function cliUser(): string {
  let name = "unknown";
  try {
    name = os.userInfo().username;
  } catch {
    // No passwd entry (a container's arbitrary uid): keep "unknown".
  }
  return `cli (${name})`;
}

/** All of standard input as UTF-8 (`--cookie-file -`), at most a byte over the cookie input limit so that the parser refuses it by size. */
async function readStdin(): Promise<string> {
  const { MAX_COOKIE_INPUT_BYTES } = await import("../../lib/cookies/import");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > MAX_COOKIE_INPUT_BYTES) break;
  }
  return Buffer.concat(chunks).toString("utf8");
}
