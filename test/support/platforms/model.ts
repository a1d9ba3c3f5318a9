/**
 * The in-memory world the local platforms serve: accounts, posts, replies, and a clock the test
 * controls. Generated from a seed with a small deterministic PRNG, so the same options always
 * give the same site (ids, texts, times) on every machine.
 *
 * This file is the model's lookup and mutation API; its parts: entities.ts (the data types),
 * generate.ts (the seeded world), clock.ts and rng.ts. Importers keep importing from here.
 */
import type { Platform } from "../../../crawler/types";
import { createClock, DEFAULT_NOW, HOUR, MINUTE, type Clock } from "./clock";
import type { LocalAccount, LocalPost, LocalReply, ModelOptions, NewPost, NewReply } from "./entities";
import { generateAccount, generationSettings, paragraphs, type GenerationSettings, type GrowingWorld } from "./generate";
import { createRng, type Rng } from "./rng";
import { NICKNAMES, REPLY_OPENERS, SENTENCES, TITLES, TOPICS } from "./text";

export { createClock, DAY, DEFAULT_NOW, HOUR, MINUTE, type Clock } from "./clock";
export type { LocalAccount, LocalPost, LocalReply, ModelOptions, NewPost, NewReply } from "./entities";
export { createRng, type Rng } from "./rng";

const ID_BASE: Record<"weibo" | "weiboComment" | "tieba" | "tiebaPost" | "discuz" | "discuzPost" | "blog" | "blogComment" | "wechat", bigint> = {
  weibo: 4_900_000_000_000_000n,
  weiboComment: 4_900_000_500_000_000n,
  tieba: 7_000_000_000n,
  tiebaPost: 140_000_000_000n,
  discuz: 100_000n,
  discuzPost: 2_000_000n,
  blog: 100n,
  blogComment: 300_000n,
  wechat: 2_650_000_000n,
};

const escapeHtml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The generated world and its mutation API (the server renders whatever is in here). */
export class PlatformModel implements GrowingWorld {
  readonly clock: Clock;
  readonly accounts: LocalAccount[] = [];
  readonly rng: Rng;
  private readonly counters = new Map<keyof typeof ID_BASE, bigint>();
  private readonly postIndex = new Map<string, LocalPost>();
  private readonly replyIndex = new Map<string, LocalReply>();
  private readonly options: GenerationSettings;

  constructor(options: ModelOptions = {}) {
    this.rng = createRng(options.seed ?? 1);
    this.clock = createClock(options.now ?? DEFAULT_NOW);
    this.options = generationSettings(options);
    const counts = { weibo: 1, tieba: 1, discuz: 1, blog: 1, ...options.accounts };
    // WeChat last: the worlds of the other platforms stay what a seed always gave.
    for (const platform of ["weibo", "tieba", "discuz", "blog", "wechat"] as const) {
      for (let k = 1; k <= (counts[platform] ?? 0); k++) generateAccount(this, this.options, platform, k);
    }
  }

  // ---- lookup

  /** The account with this key ("weibo-1"); throws when unknown. */
  account(key: string): LocalAccount {
    const a = this.accounts.find((x) => x.key === key);
    if (!a) throw new Error(`no local account ${key}`);
    return a;
  }

  /** An account by platform and URL slug, or undefined. */
  findAccount(platform: Platform, slug: string): LocalAccount | undefined {
    return this.accounts.find((a) => a.platform === platform && a.slug === slug);
  }

  /** A post as served: undefined when unknown or removed (its page then answers "deleted"). */
  post(id: string): LocalPost | undefined {
    const post = this.postIndex.get(id);
    return post?.removed ? undefined : post;
  }

  /** A post whether removed or not. */
  postIncludingRemoved(id: string): LocalPost | undefined {
    return this.postIndex.get(id);
  }

  reply(id: string): LocalReply | undefined {
    return this.replyIndex.get(id);
  }

  /** Newest activity of a post: its last reply, else its publication. */
  lastActivity(post: LocalPost): Date {
    const last = post.replies.at(-1);
    return last && last.publishedAt > post.publishedAt ? last.publishedAt : post.publishedAt;
  }

  /** Posts of an account visible at the clock's time, newest first by publication. */
  visiblePosts(account: LocalAccount): LocalPost[] {
    const now = this.clock.now().getTime();
    return account.posts
      .filter((p) => !p.removed && p.publishedAt.getTime() <= now)
      .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime() || cmpId(b.id, a.id));
  }

  /** Replies of a post visible at the clock's time, oldest first. */
  visibleReplies(post: LocalPost): LocalReply[] {
    const now = this.clock.now().getTime();
    return post.replies.filter((r) => !r.removed && r.publishedAt.getTime() <= now);
  }

  // ---- mutations

  /** A new post on an account, published at `at` (default: the clock's now). */
  addPost(accountKey: string, input: NewPost = {}): LocalPost {
    const account = this.account(accountKey);
    const topic = input.topic ?? this.rng.pick(TOPICS);
    const at = input.at ?? this.clock.now();
    const long = input.long ?? false;
    const html =
      input.html ?? (input.text !== undefined ? `<p>${escapeHtml(input.text)}</p>` : paragraphs(this.rng, topic, long ? 9 : this.rng.int(1, 3), long));
    const post: LocalPost = {
      id: this.nextId(account.platform === "blog" ? "blog" : account.platform),
      accountKey,
      platform: account.platform,
      title: input.title ?? this.rng.pick(TITLES[topic]),
      author:
        input.author ??
        (account.platform === "weibo" || account.platform === "blog" || account.platform === "wechat" ? account.name : this.rng.pick(NICKNAMES)),
      html,
      topic,
      publishedAt: new Date(at),
      editedAt: null,
      pinned: input.pinned ?? false,
      headId: account.platform === "tieba" ? this.nextId("tiebaPost") : account.platform === "discuz" ? this.nextId("discuzPost") : "",
      views: this.rng.int(10, 5000),
      replies: [],
    };
    account.posts.push(post);
    this.postIndex.set(post.id, post);
    return post;
  }

  /** A new reply to a post (a comment on blogs: generated blogs have none), at `at` (default: the clock's now). */
  addReply(postId: string, input: NewReply = {}): LocalReply {
    const post = this.requirePost(postId);
    const at = input.at ?? this.clock.now();
    const kind = post.platform === "weibo" ? "weiboComment" : post.platform === "tieba" ? "tiebaPost" : post.platform === "blog" ? "blogComment" : "discuzPost";
    const html =
      input.html ??
      (input.text !== undefined
        ? escapeHtml(input.text)
        : `${this.rng.pick(REPLY_OPENERS)}${this.rng.chance(0.6) ? this.rng.pick(SENTENCES[post.topic]) : ""}`);
    const reply: LocalReply = {
      id: this.nextId(kind),
      postId,
      author: input.author ?? this.rng.pick(NICKNAMES),
      html,
      topic: post.topic,
      publishedAt: new Date(at),
      editedAt: null,
      floor: (post.replies.at(-1)?.floor ?? 1) + 1,
      ...(input.parentId !== undefined ? { parentId: input.parentId } : {}),
    };
    // Replies stay in time order: a reply "in the past" goes where it belongs.
    const idx = post.replies.findIndex((r) => r.publishedAt > reply.publishedAt);
    if (idx === -1) post.replies.push(reply);
    else post.replies.splice(idx, 0, reply);
    post.replies.forEach((r, k) => (r.floor = k + 2));
    this.replyIndex.set(reply.id, reply);
    return reply;
  }

  /** Change a post's title and/or content; `editedAt` is set to the clock's now. */
  editPost(postId: string, change: { title?: string; text?: string; html?: string }): LocalPost {
    const post = this.requirePost(postId);
    if (change.title !== undefined) post.title = change.title;
    if (change.html !== undefined) post.html = change.html;
    else if (change.text !== undefined) post.html = `<p>${escapeHtml(change.text)}</p>`;
    post.editedAt = this.clock.now();
    return post;
  }

  /** Change a reply's content; `editedAt` is set to the clock's now. */
  editReply(replyId: string, change: { text?: string; html?: string }): LocalReply {
    const reply = this.replyIndex.get(replyId);
    if (!reply) throw new Error(`no local reply ${replyId}`);
    reply.html = change.html ?? escapeHtml(change.text ?? "");
    reply.editedAt = this.clock.now();
    return reply;
  }

  /** Delete a post as a moderator would (or undo it with `removed = false`): unlisted, its page "deleted". */
  removePost(postId: string, removed = true): LocalPost {
    const post = this.requirePost(postId);
    post.removed = removed;
    return post;
  }

  /** Delete a reply as a moderator would (or undo it): gone from its thread, other floors keep their numbers. */
  removeReply(replyId: string, removed = true): LocalReply {
    const reply = this.replyIndex.get(replyId);
    if (!reply) throw new Error(`no local reply ${replyId}`);
    reply.removed = removed;
    return reply;
  }

  /** Pin (or unpin) a post: it is listed first whatever its age. */
  pin(postId: string, pinned = true): LocalPost {
    const post = this.requirePost(postId);
    post.pinned = pinned;
    return post;
  }

  /** Serve a Discuz! board as GBK (or back to UTF-8). */
  setEncoding(accountKey: string, encoding: "utf-8" | "gbk"): void {
    this.account(accountKey).encoding = encoding;
  }

  /**
   * Random new activity between the clock's now and `now + withinMs` (deterministic for a given
   * seed and history): `posts` new posts on random accounts, `replies` new replies on random
   * recent posts. Advance the clock past `withinMs` to make all of it visible.
   */
  simulateActivity(activity: { posts?: number; replies?: number; withinMs?: number }): { posts: LocalPost[]; replies: LocalReply[] } {
    const within = activity.withinMs ?? HOUR;
    const start = this.clock.now().getTime();
    const posts: LocalPost[] = [];
    const replies: LocalReply[] = [];
    for (let i = 0; i < (activity.posts ?? 0) && this.accounts.length > 0; i++) {
      const account = this.rng.pick(this.accounts);
      posts.push(
        this.addPost(account.key, {
          at: new Date(start + this.rng.int(0, within)),
          long: account.platform === "weibo" && this.rng.chance(this.options.longTextRatio),
        }),
      );
    }
    const threads = this.accounts.filter((a) => a.platform !== "blog").flatMap((a) => a.posts);
    for (let i = 0; i < (activity.replies ?? 0) && threads.length > 0; i++) {
      // Recent threads get most replies, as on real forums.
      const recent = [...threads].sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime()).slice(0, 20);
      const post = this.rng.pick(recent);
      replies.push(this.addReply(post.id, { at: new Date(Math.max(start + this.rng.int(0, within), post.publishedAt.getTime() + MINUTE)) }));
    }
    return { posts, replies };
  }

  private requirePost(id: string): LocalPost {
    const post = this.postIndex.get(id);
    if (!post) throw new Error(`no local post ${id}`);
    return post;
  }

  private nextId(kind: keyof typeof ID_BASE): string {
    const n = (this.counters.get(kind) ?? 0n) + 1n;
    this.counters.set(kind, n);
    return String(ID_BASE[kind] + n);
  }
}

/** Numeric-string comparison (ids are too long for Number on Weibo). */
export function cmpId(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
