/**
 * The filter of the dashboard's post lists (flagged list, posts list, export): what it holds, how
 * it is read from a query string and written back, and the keyset cursor of the list pages.
 */
import { z } from "zod";
import { shanghaiDayStart } from "../lib/time";
import { PLATFORMS, type Platform } from "@/crawler/types";
import { SENTIMENTS, type Sentiment } from "../lib/sentiments";
import type { TopicScope } from "../lib/topic-scope";

export const REVIEW_STATES = ["open", "reviewed", "confirmed", "dismissed"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
export const DELETED_STATES = ["yes", "no"] as const;
export type DeletedState = (typeof DELETED_STATES)[number];

/** What the lists can be filtered by. Every field is optional; `flagged` selects the view. */
export interface PostFilter {
  /** Only posts with a flag (that matches topic / review / minScore). */
  flagged: boolean;
  topicId?: number;
  platform?: Platform;
  accountId?: number;
  /**
   * Only this author's posts and replies (Post.authorId, lib/authors.ts); applies only with
   * `platform`, since an id means one person on one platform.
   */
  authorId?: string;
  /** Asia/Shanghai calendar days, inclusive: "2026-11-01". */
  from?: string;
  to?: string;
  review?: ReviewState;
  /** Flag score (flagged view) or classification score (posts view), 0–1. */
  minScore?: number;
  kind?: "post" | "reply";
  /** "yes": only posts the crawler noticed deleted on the platform; "no": only those still there. */
  deleted?: DeletedState;
  /** Only posts the classifier judged so (Post.sentiment). */
  sentiment?: Sentiment;
  q?: string;
  /**
   * The reader's topic scope (lib/topic-scope.ts), set from the user, never from the URL: the
   * flagged view then holds only flags of these topics. Undefined or null: every topic.
   */
  scope?: TopicScope;
}

/** A position in the newest-first order. */
export interface Cursor {
  publishedAt: Date;
  id: number;
}

const blankToUndefined = (v: unknown) =>
  v === "" || v === null || (Array.isArray(v) && v.length === 0) ? undefined : Array.isArray(v) ? (v as unknown[])[0] : v;
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "use YYYY-MM-DD");
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional().catch(undefined));

/** Query-string schema of the filter: unknown or malformed values are ignored, not errors. */
export const postFilterSchema = z.object({
  topic: optional(z.coerce.number().int().positive()),
  platform: optional(z.enum(PLATFORMS as unknown as [Platform, ...Platform[]])),
  account: optional(z.coerce.number().int().positive()),
  author: optional(z.string().trim().min(1).max(200)),
  from: optional(day),
  to: optional(day),
  review: optional(z.enum(REVIEW_STATES)),
  minScore: optional(z.coerce.number().min(0).max(1)),
  kind: optional(z.enum(["post", "reply"])),
  deleted: optional(z.enum(DELETED_STATES)),
  sentiment: optional(z.enum(SENTIMENTS)),
  q: optional(z.string().trim().max(200)),
  after: optional(z.string().regex(/^\d+\.\d+$/)),
  before: optional(z.string().regex(/^\d+\.\d+$/)),
});

export type SearchParams = Record<string, string | string[] | undefined>;

/** Read the filter and the page position from a page's search params. */
export function parsePostFilter(params: SearchParams, flagged: boolean): { filter: PostFilter; after?: Cursor; before?: Cursor } {
  const p = postFilterSchema.parse(params);
  const filter: PostFilter = {
    flagged,
    topicId: p.topic,
    platform: p.platform,
    accountId: p.account,
    authorId: p.platform ? p.author : undefined,
    from: p.from,
    to: p.to,
    review: p.review,
    minScore: p.minScore,
    kind: p.kind,
    deleted: p.deleted,
    sentiment: p.sentiment,
    q: p.q || undefined,
  };
  return { filter, after: decodeCursor(p.after), before: decodeCursor(p.before) };
}

/** `{ms}.{id}`: short, opaque enough, and stable in a URL. */
export function encodeCursor(c: Cursor): string {
  return `${c.publishedAt.getTime()}.${c.id}`;
}
export function decodeCursor(s: string | undefined): Cursor | undefined {
  if (!s) return undefined;
  const [ms, id] = s.split(".").map(Number);
  if (!Number.isSafeInteger(ms) || !Number.isSafeInteger(id)) return undefined;
  return { publishedAt: new Date(ms!), id: id! };
}

/** The filter as query-string pairs (for links that keep it: pages, export, detail). */
export function filterToParams(f: PostFilter): URLSearchParams {
  const sp = new URLSearchParams();
  if (f.topicId) sp.set("topic", String(f.topicId));
  if (f.platform) sp.set("platform", f.platform);
  if (f.accountId) sp.set("account", String(f.accountId));
  if (f.authorId) sp.set("author", f.authorId);
  if (f.from) sp.set("from", f.from);
  if (f.to) sp.set("to", f.to);
  if (f.review) sp.set("review", f.review);
  if (f.minScore !== undefined) sp.set("minScore", String(f.minScore));
  if (f.kind) sp.set("kind", f.kind);
  if (f.deleted) sp.set("deleted", f.deleted);
  if (f.sentiment) sp.set("sentiment", f.sentiment);
  if (f.q) sp.set("q", f.q);
  return sp;
}

/** Start of an Asia/Shanghai day as an instant (lib/time.ts; importers of this module keep their path). */
export { shanghaiDayStart };
