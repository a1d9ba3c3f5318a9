/**
 * The operations of the crawl's small aggregates — accounts and their access settings, runs,
 * history marks, known posts, topic rows, the classifier's queue — as their plans yield them.
 * The rules live in the plans (../account-rows.ts, ../account-access.ts, ../runs.ts, ./marks.ts,
 * ./known.ts, ../classify/topic-loader.ts, ../classify/pending.ts); ./sqlite.ts and ./prisma.ts
 * only carry the operations out (lib/store picks which). Each operation's comment says what it
 * returns.
 */
import type { Account, CrawlRun, Topic } from "@/generated/prisma/client";

/** Columns of an account a run writes. */
export interface AccountChange {
  status?: string;
  lastRunAt?: Date;
  lastError?: string | null;
  listValidators?: string;
  updatedAt: Date;
}

/** A new CrawlRun row. */
export interface NewRun {
  accountId: number;
  trigger: string;
  status: string;
  startedAt: Date;
  robotsPolicy: string;
  robotsPolicySetBy: string | null;
  robotsPolicySetAt: Date | null;
}

/** Columns of a run written when it ends: every column but those it started with. */
export type RunChange = Omit<CrawlRun, "id" | "accountId" | "trigger" | "startedAt" | "robotsPolicy" | "robotsPolicySetBy" | "robotsPolicySetAt"> & {
  finishedAt: Date;
};

/** A HistoryMark row as the plans read it (resume: JSON text, see ./marks.ts ThreadResume). */
export interface StoredMark {
  scope: string;
  newestAt: Date;
  resume: string | null;
}

/** A listed post's stored state, for decisions before fetching more (./known.ts knownPosts). */
export interface KnownPost {
  id: number;
  platformId: string;
  sha1: string;
  listSha1: string | null;
  replyCount: number | null;
  lastReplyAt: Date | null;
  publishedAt: Date;
  /** The stored text is partial: read the full text again even when the excerpt is unchanged. */
  incomplete: boolean;
  /** Marked deleted by an earlier crawl: seeing it again restores it (as a new version). */
  deletedAt: Date | null;
}

/** A post of the site as the known-posts read sees it: with the account that stored it. */
export type KnownRow = KnownPost & { accountId: number };

/** A topic's row as the classifier loads it (../classify/topic-loader.ts). */
export type StoredTopicRow = Pick<
  Topic,
  "id" | "name" | "keywords" | "sensitiveWords" | "relevantLabels" | "nbThreshold" | "cosineThreshold" | "modelVersion" | "enabled" | "userDict"
>;

/** One operation of a crawl aggregate's plan. */
export type CrawlOp =
  /** → Account[] (whole rows, as Prisma reads them), in id order: one account, or every enabled one. */
  | { op: "accounts"; which: { id: number } | { enabled: true } }
  /** → string | null (the column, still sealed), or undefined when there is no such account. */
  | { op: "accountAccess"; id: number; column: "cookies" | "proxy" }
  /** → number: rows changed (0: no such account). */
  | { op: "updateAccount"; id: number; data: AccountChange }
  /** → number: the account's runs still "running" now closed as failed with this note. */
  | { op: "closeRuns"; accountId: number; finishedAt: Date; note: string }
  /** → number: the new run's id. */
  | { op: "insertRun"; row: NewRun }
  /** → number: rows changed (0: no such run). */
  | { op: "updateRun"; id: number; data: RunChange }
  /** → StoredMark[]: every mark of the account. */
  | { op: "marks"; accountId: number }
  /** → StoredMark[]: the account's marks of these scopes that exist. */
  | { op: "marksOf"; accountId: number; scopes: string[] }
  /** → nothing: new marks (none of them exists), stamped `at`. */
  | { op: "insertMarks"; accountId: number; marks: StoredMark[]; at: Date }
  /** → nothing: the present columns of one mark, stamped `at`. */
  | { op: "updateMark"; accountId: number; scope: string; change: { newestAt?: Date; resume?: string | null }; at: Date }
  /** → KnownRow[]: the posts with these platform ids on the account's site (./site.ts onSite). */
  | { op: "knownRows"; accountId: number; siteKey: string; platformIds: string[] }
  /** → number[]: the ids of posts `accountId` newly became a source of (./site.ts addSources). */
  | { op: "addSources"; accountId: number; postIds: number[]; now: Date }
  /** → StoredTopicRow[]: every topic, in id order. */
  | { op: "topicRows" }
  /** → boolean: some post the account reached is queued for classification (UnclassifiedPost). */
  | { op: "anyPending"; accountId: number };

/** The account row type the "accounts" operation returns. */
export type { Account };
