/**
 * What the local platforms' world is made of — accounts, posts, replies — and the options that
 * generate it. Plain data: the model (model.ts) owns and changes it, the renderers only read it.
 */
import type { Platform } from "../../../crawler/types";
import type { Topic } from "./text";

/** A reply (Weibo comment, Tieba floor, Discuz! post after the first). */
export interface LocalReply {
  /** Weibo comment id, Tieba post id, Discuz! pid. */
  id: string;
  postId: string;
  author: string;
  html: string;
  topic: Topic;
  publishedAt: Date;
  editedAt: Date | null;
  /** Floor number on Tieba/Discuz! (the head post is floor 1, so replies start at 2). */
  floor: number;
  /** Deleted by a moderator (`removeReply`): no longer served; floors of the others stay. */
  removed?: boolean;
  /** Blogs: the comment this one answers (a threaded WordPress comment); unset for a comment on the post. */
  parentId?: string;
}

/** A post (Weibo status, Tieba/Discuz! thread with its head post, blog article). */
export interface LocalPost {
  /** Weibo id (= mid), Tieba tid, Discuz! tid, blog article number. */
  id: string;
  accountKey: string;
  platform: Platform;
  title: string;
  author: string;
  /** Full content (Weibo long text included). */
  html: string;
  topic: Topic;
  publishedAt: Date;
  editedAt: Date | null;
  pinned: boolean;
  /** Tieba: post id of floor 1; Discuz!: pid of the first post. Unused elsewhere. */
  headId: string;
  views: number;
  replies: LocalReply[];
  /** Deleted by a moderator (`removePost`): not listed, and its page answers "deleted". */
  removed?: boolean;
}

/** A monitored account on one platform. */
export interface LocalAccount {
  /** "weibo-1", "tieba-2", …: how tests name accounts. */
  key: string;
  platform: Platform;
  /** Screen name, bar name, board name or blog title. */
  name: string;
  /** What identifies it in URLs: Weibo uid, Tieba kw, Discuz! fid, blog slug. */
  slug: string;
  /** Discuz! boards can be served as GBK. */
  encoding: "utf-8" | "gbk";
  /** Blogs: whether `/blog/{slug}/feed/` exists (and is advertised by a `<link rel=alternate>`). */
  hasFeed: boolean;
  /** Blogs: markup of the pages (see blog.ts); a test may switch it. @default "hexo" */
  blogTheme?: "hexo" | "wordpress";
  /** Blogs with a feed: WordPress-style RSS at `feed/`, or Hexo-style Atom at `atom.xml`. @default "rss" */
  blogFeed?: "rss" | "atom";
  posts: LocalPost[];
}

/** Options of the generated world. */
export interface ModelOptions {
  /** PRNG seed. @default 1 */
  seed?: number;
  /** The clock's start. @default 2025-06-15T04:00:00Z (Sunday 12:00 in Shanghai) */
  now?: Date;
  /** Accounts per platform. @default { weibo: 1, tieba: 1, discuz: 1, blog: 1 } */
  accounts?: Partial<Record<Platform, number>>;
  /** Posts generated per account. @default 30 */
  postsPerAccount?: number;
  /** Replies per post (not for blogs), uniform in [min, max]. @default [0, 8] */
  repliesPerPost?: readonly [number, number];
  /** Posts are spread over this many days before `now`. @default 60 */
  spanDays?: number;
  /** Share of Weibo posts longer than 140 characters (served cut, with `isLongText`). @default 0.2 */
  longTextRatio?: number;
  /** Each account (but blogs) gets its oldest post pinned. @default true */
  pinOldest?: boolean;
  /** Blogs with a feed: all, none, or every other one (blog-1 yes, blog-2 no, …). @default "alternate" */
  blogFeeds?: boolean | "alternate";
  /** Encoding of Discuz! boards (change one with `setEncoding`). @default "utf-8" */
  discuzEncoding?: "utf-8" | "gbk";
}

/** What `addPost` accepts; everything has a generated default. */
export interface NewPost {
  title?: string;
  /** Plain text; wrapped in <p>. Ignored when `html` is given. */
  text?: string;
  html?: string;
  author?: string;
  topic?: Topic;
  /** @default clock.now() */
  at?: Date;
  pinned?: boolean;
  /** Weibo: make it longer than 140 characters. */
  long?: boolean;
}

/** What `addReply` accepts. */
export interface NewReply {
  /** Blogs: the comment this one answers. */
  parentId?: string;
  text?: string;
  html?: string;
  author?: string;
  /** @default clock.now() */
  at?: Date;
}
