/**
 * The demo: a local copy of each platform (the same module the tests and benchmarks use), served
 * by CampusWatch itself so a fresh install crawls something real without internet, plus the demo
 * data that points at it (an admin, a topic, one account per platform).
 */
import crypto from "node:crypto";
import type { Db } from "../lib/db";
import { DEFAULT_CLASSIFIER } from "../lib/classifiers";
import { createUser } from "../lib/users";
// Topic rows are written by their owner, crawler/classify (docs/tables.md); its light file, not the classifier.
import { createTopicRow } from "./classify/topic-rows";
import { createAccount } from "../server/accounts";
import { CLI_ACTOR } from "../lib/audit";
import { startLocalPlatforms, type LocalPlatforms } from "../test/support/platforms";
import { updateAccountRow } from "./account-rows";

/**
 * The demo admin's name. Its password is random, made when the demo creates it and printed once:
 * a demo left running on a reachable machine must not open with a password anyone can read here.
 */
export const DEMO_ADMIN_USERNAME = "admin";

/** The demo topic: flags posts about exams and cheating even before any model is trained. */
export const DEMO_TOPIC = {
  name: "考试",
  keywords: ["考试", "作弊", "补考", "期末"],
  sensitiveWords: ["作弊", "代考", "替考"],
};

export interface DemoSite {
  site: LocalPlatforms;
  close(): Promise<void>;
}

/**
 * Start the demo site on `port`. Its clock follows the wall clock, and every `activityMs` it
 * posts and replies a little, so scheduled crawls keep finding something new.
 */
export async function startDemoSite(port: number, { activityMs = 120_000 } = {}): Promise<DemoSite> {
  const site = await startLocalPlatforms({
    seed: 2026,
    now: new Date(),
    port,
    accounts: { weibo: 1, tieba: 1, discuz: 1, blog: 2 },
    postsPerAccount: 30,
    repliesPerPost: [0, 6],
    weiboDates: "rfc",
  });
  // The site's clock follows the wall clock, as a real site's does: its relative dates
  // ("5分钟前") must mean the same thing to the crawler a minute later.
  const tick = setInterval(() => site.clock.set(new Date()), 1000);
  tick.unref();
  // New posts and replies trickle in over the next window, so every scheduled crawl finds some.
  const activity = setInterval(() => site.simulateActivity({ posts: 3, replies: 8, withinMs: activityMs }), activityMs);
  activity.unref();
  return {
    site,
    async close() {
      clearInterval(tick);
      clearInterval(activity);
      await site.close();
    },
  };
}

/**
 * Load the demo data, idempotently: the admin (only when there is no user yet), the topic, and one
 * account per demo platform (crawled as soon as the scheduler starts).
 */
export async function seedDemo(db: Db, site: LocalPlatforms, log: (m: string) => void = console.log): Promise<void> {
  if ((await db.user.count()) === 0) {
    const password = crypto.randomBytes(12).toString("base64url");
    await createUser(db, { username: DEMO_ADMIN_USERNAME, password, role: "admin" });
    log(
      `demo: created admin "${DEMO_ADMIN_USERNAME}" with password "${password}"\n` +
        "      (shown this once; change it on the Users page, or: npx campuswatch user password admin --password '…')",
    );
  }
  if (!(await db.topic.findUnique({ where: { name: DEMO_TOPIC.name } }))) {
    await createTopicRow(db, {
      // The kind new topics get from the form and the CLI (the column's own default is older).
      data: {
        name: DEMO_TOPIC.name,
        keywords: JSON.stringify(DEMO_TOPIC.keywords),
        sensitiveWords: JSON.stringify(DEMO_TOPIC.sensitiveWords),
        classifier: DEFAULT_CLASSIFIER,
      },
    });
    log(`demo: created topic ${DEMO_TOPIC.name}`);
  }
  for (const a of site.accounts) {
    const url = site.entryUrl(a.key);
    if (await db.account.findUnique({ where: { entryUrl: url } })) continue;
    const row = await createAccount(db, { url, name: `${a.name} (demo)`, cron: "*/5 * * * *", fetchMode: "http" }, CLI_ACTOR);
    await updateAccountRow(db, { where: { id: row.id }, data: { crawlRequestedAt: new Date() } });
    log(`demo: registered ${row.platform} account ${row.name} at ${url}`);
  }
}
