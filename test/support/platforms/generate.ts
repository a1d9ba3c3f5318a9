/**
 * The seeded world a new model starts with: accounts with their names and URL slugs, posts spread
 * over the past days, replies after them, and the generated text. Every random draw goes through
 * the model's one Rng in a fixed order, so a seed always gives the same world.
 */
import type { Platform } from "../../../crawler/types";
import { DAY, MINUTE, type Clock } from "./clock";
import type { LocalAccount, LocalPost, LocalReply, ModelOptions, NewPost, NewReply } from "./entities";
import type { Rng } from "./rng";
import { ACCOUNT_NAMES, BLOG_SLUGS, SENTENCES, type Topic } from "./text";

/**
 * What generation writes into: the part of ./model.ts's PlatformModel it uses, named here so that
 * this module does not import the model that imports it (no import cycle, type-only included).
 */
export interface GrowingWorld {
  readonly clock: Clock;
  readonly accounts: LocalAccount[];
  readonly rng: Rng;
  addPost(accountKey: string, input?: NewPost): LocalPost;
  addReply(postId: string, input?: NewReply): LocalReply;
}

/** The generation options with their defaults filled in (the model's settings). */
export type GenerationSettings = Required<Omit<ModelOptions, "now" | "accounts" | "seed">>;

/** Defaults of the generation options (see {@link ModelOptions}). */
export function generationSettings(options: ModelOptions): GenerationSettings {
  return {
    postsPerAccount: options.postsPerAccount ?? 30,
    repliesPerPost: options.repliesPerPost ?? [0, 8],
    spanDays: options.spanDays ?? 60,
    longTextRatio: options.longTextRatio ?? 0.2,
    pinOldest: options.pinOldest ?? true,
    blogFeeds: options.blogFeeds ?? "alternate",
    discuzEncoding: options.discuzEncoding ?? "utf-8",
  };
}

/** Add the k-th account of a platform (from 1) with its history of posts and replies up to the clock's now. */
export function generateAccount(model: GrowingWorld, settings: GenerationSettings, platform: Platform, k: number): void {
  const names = ACCOUNT_NAMES[platform];
  const base = names[(k - 1) % names.length] ?? platform;
  const name = k > names.length ? `${base}${Math.ceil(k / names.length)}` : base;
  const slug =
    platform === "weibo"
      ? String(5_000_000_000 + k)
      : platform === "tieba"
        ? name
        : platform === "discuz"
          ? String(10 + k)
          : platform === "wechat"
            ? `cwArticle${String(k).padStart(4, "0")}Tk`
            : `${BLOG_SLUGS[(k - 1) % BLOG_SLUGS.length] ?? "blog"}${k > BLOG_SLUGS.length ? Math.ceil(k / BLOG_SLUGS.length) : ""}`;
  const feeds = settings.blogFeeds;
  const account: LocalAccount = {
    key: `${platform}-${k}`,
    platform,
    name,
    slug,
    encoding: platform === "discuz" ? settings.discuzEncoding : "utf-8",
    hasFeed: platform === "blog" && (feeds === "alternate" ? k % 2 === 1 : feeds),
    posts: [],
  };
  model.accounts.push(account);

  const rng = model.rng;
  const now = model.clock.now().getTime();
  const span = settings.spanDays * DAY;
  // Times first, sorted, so ids grow with time as they do on the platforms.
  // A WeChat account is one article.
  const times = Array.from({ length: platform === "wechat" ? 1 : settings.postsPerAccount }, () => now - rng.int(10 * MINUTE, span)).sort((a, b) => a - b);
  for (const t of times) {
    const long = platform === "weibo" && rng.chance(settings.longTextRatio);
    const post = model.addPost(account.key, { at: new Date(t), long });
    if (platform === "blog" || platform === "wechat") continue;
    const [min, max] = settings.repliesPerPost;
    const n = rng.int(min, max);
    const replyTimes = Array.from({ length: n }, () => t + rng.int(MINUTE, Math.max(MINUTE, Math.min(now - t - MINUTE, 10 * DAY)))).sort((a, b) => a - b);
    for (const rt of replyTimes) model.addReply(post.id, { at: new Date(rt) });
  }
  if (settings.pinOldest && platform !== "blog" && platform !== "wechat") {
    const oldest = account.posts[0];
    if (oldest) oldest.pinned = true;
  }
}

/** A generated body of `sentences` sentences on a topic; `long` ones pass Weibo's 140-character cut. */
export function paragraphs(rng: Rng, topic: Topic, sentences: number, long: boolean): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(rng.pick(SENTENCES[topic]));
  if (long) {
    // Weibo cuts at 140 characters: make sure a "long" post really is longer.
    while (out.join("").length < 180) out.push(rng.pick(SENTENCES[topic]));
    return out.map((s) => `<p>${s}</p>`).join("");
  }
  return `<p>${out.join("")}</p>`;
}
