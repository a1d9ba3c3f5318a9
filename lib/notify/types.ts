/** Types shared by the notification service and its channels. */
import type { Dispatcher } from "undici";
import type { AddressPolicy, Resolver } from "../net/address";

/** Where a notification goes. Stored in `Notification.channel`. */
export type Channel = "webhook" | "email" | "dingtalk" | "wecom" | "feishu";

/** Every channel, in the order a topic's notifications are created. */
export const CHANNELS: readonly Channel[] = ["webhook", "email", "dingtalk", "wecom", "feishu"];

export interface NotifyOptions {
  /** Attempts per delivery. @default 3 */
  attempts?: number;
  /** Timeout of one attempt. @default 10000 */
  timeoutMs?: number;
  /** Delay before the n-th retry (n = 1, 2, …). @default 1 s, 4 s, … */
  backoffMs?: (retry: number) => number;
  /** The dashboard's public URL for links in messages. @default CAMPUSWATCH_PUBLIC_URL */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Where e-mail goes. @default {@link smtpConfig} of the environment */
  smtp?: SmtpSettings | null;
  /** The clock that timestamps signatures (tests send stale ones). @default Date.now */
  now?: () => number;
  /** The clock quiet hours are judged by (ms; a scheduler test's fixed clock). @default Date.now */
  clock?: () => number;
  /**
   * Hosts and CIDR ranges a channel may reach on an internal address (lib/net/address.ts).
   * @default CAMPUSWATCH_ALLOW_INTERNAL
   */
  allowInternal?: readonly string[];
  /** Host name resolver of the address policy. @default the system resolver */
  resolve?: Resolver;
}

/** How to reach the SMTP server that sends e-mail notifications. */
export interface SmtpSettings {
  host: string;
  /** @default 587 */
  port: number;
  /** Login name; empty for a server that needs none. */
  user: string;
  pass: string;
  /** The From address. @default the login name */
  from: string;
}

export interface FlagSummary {
  flagId: number;
  postId: number;
  url: string;
  title: string;
  excerpt: string;
  author: string;
  publishedAt: string;
  score: number;
  reasons: unknown;
  dashboardUrl: string | null;
}

/**
 * What a notification says, stored as JSON in `Notification.payload` and POSTed as it is to the
 * generic webhook. The chat channels (DingTalk, WeCom, Feishu) turn it into their own messages.
 */
export interface NotificationPayload {
  event: "campuswatch.flags";
  topic: { id: number; name: string };
  /** The topic's flagged list on the dashboard (null without a public URL). Absent in older rows. */
  topicUrl?: string | null;
  crawlRun: { id: number; accountId: number; account: string; platform: string; startedAt: string; finishedAt: string | null };
  /** Flags the run opened for the topic; `flags` lists at most 200 of them. Absent in older rows. */
  total?: number;
  flags: FlagSummary[];
}

/**
 * "The login expired" (需要重新登录): an account with login cookies was answered as a visitor.
 * Sent once per expiry to every enabled topic's channels (topics are not linked to accounts),
 * stored as JSON in `Notification.payload` and POSTed as it is to the generic webhook.
 * `event` is the first key, so stored rows can be told apart by their prefix.
 */
export interface LoginExpiredPayload {
  event: "campuswatch.login-expired";
  topic: { id: number; name: string };
  account: { id: number; name: string; platform: string; entryUrl: string };
  crawlRun: { id: number; startedAt: string; finishedAt: string | null };
  /** The page or API URL that showed the logged-out state. */
  url: string | null;
  /** What the platform answered, in English (the run's error reason). */
  reason: string;
  /** The account's page on the dashboard, where cookies are set again (null without a public URL). */
  accountUrl: string | null;
}

/** Why an incident alert or update is sent (crawler/incidents/alerts.ts), with the figures it names. */
export type IncidentAlertReason =
  | { rule: "flagged"; flagged: number }
  | { rule: "posts"; size: number; min: number }
  | { rule: "spread"; platformCount: number; size: number }
  | { rule: "burst"; recent: number; ratio: number }
  | { rule: "growth"; added: number; size: number };

/**
 * One incident's alert (its first message) or update (at most one per incident per the topic's
 * period): stored as JSON in `Notification.payload` and POSTed as it is to the generic webhook.
 * `event` is the first key, so stored rows can be told apart by their prefix.
 */
export interface IncidentAlertPayload {
  event: "campuswatch.incident";
  kind: "alert" | "update";
  /** The language the chat and e-mail texts are written in (the topic's notifyLocale). */
  locale: "zh-CN" | "en";
  topic: { id: number; name: string; urgent: boolean };
  incident: {
    id: number;
    title: string;
    keywords: string[];
    heat: number;
    bursting: boolean;
    size: number;
    /** Platform ids (lib/platforms) in the order the incident reached them. */
    platforms: string[];
    authorCount: number;
    flaggedCount: number;
    negativeCount: number;
    firstSeenAt: string;
    lastSeenAt: string;
  };
  reasons: IncidentAlertReason[];
  /** The incident's page on the dashboard (null without a public URL). */
  incidentUrl: string | null;
  /** The crawl run whose posts made it due; null for the periodic check. */
  crawlRunId: number | null;
  /** When it was decided (ISO). */
  at: string;
}

/**
 * 删帖提醒: a post with an open or confirmed flag, or in an open incident, was deleted from its
 * platform (the crawl marked it deleted: crawler/worker/deletions.ts). One per deletion and topic,
 * stored as JSON in `Notification.payload` and POSTed as it is to the generic webhook.
 * `event` then `key` are the first keys, so stored rows can be told apart by their prefix.
 */
export interface DeletionPayload {
  event: "campuswatch.deletion";
  /** `<postId>@<deletedAt ISO>`: one deletion of one post (a post restored and deleted again is another). */
  key: string;
  /** The language the chat and e-mail texts are written in (the topic's notifyLocale). */
  locale: "zh-CN" | "en";
  topic: { id: number; name: string };
  post: {
    id: number;
    kind: string;
    /** The post's own address on its platform (what a report cites, though it now answers "deleted"). */
    url: string;
    title: string;
    excerpt: string;
    author: string;
    platform: string;
    account: string;
    publishedAt: string;
    /** When the crawl noticed it gone (Post.deletedAt, the crawl's clock). */
    deletedAt: string;
  };
  /** The topic's flag on it, when it has one that is open or confirmed. */
  flag: { id: number; status: string; score: number; reasons: unknown } | null;
  /** Its open incident of this topic, when it is in one. */
  incident: { id: number; title: string } | null;
  /** The post's page on the dashboard (null without a public URL). */
  postUrl: string | null;
  /** The incident's page on the dashboard (null without a public URL or incident). */
  incidentUrl: string | null;
  crawlRunId: number;
}

/**
 * A case (an incident's or a flag's follow-up, server/cases.ts) was assigned to a user. Users have
 * no notification channel of their own, so it goes to the channels of the case's topic and names
 * the assignee; a per-user channel can later be one more target of the same payload.
 * `event` is the first key, so stored rows can be told apart by their prefix.
 */
export interface CaseAssignedPayload {
  event: "campuswatch.case";
  kind: "assigned";
  /** The language the chat and e-mail texts are written in (the topic's notifyLocale). */
  locale: "zh-CN" | "en";
  topic: { id: number; name: string };
  case: { id: number; status: string; dueAt: string | null; note: string };
  /** What the case follows: an incident, or a flag (with its post). */
  subject: { kind: "incident" | "flag"; id: number; title: string; postId: number | null };
  assignee: { id: number; username: string };
  /** Who assigned it (a username, or "cli"). */
  assignedBy: string;
  /** The incident's or the post's page on the dashboard (null without a public URL). */
  caseUrl: string | null;
  /** 我的待办 on the dashboard (null without a public URL). */
  todoUrl: string | null;
  /** When it was assigned (ISO). */
  at: string;
}

/** Whatever a Notification row carries. */
export type AnyNotificationPayload = NotificationPayload | LoginExpiredPayload | IncidentAlertPayload | DeletionPayload | CaseAssignedPayload;

export interface NotifyResult {
  notifications: number;
  sent: number;
  failed: number;
  /** Held for their channel's quiet hours (sent when they end). */
  held?: number;
}

/** The result of one delivery attempt. `retry`: worth trying again (network, rate limit, 5xx). */
export type Outcome = { ok: true } | { ok: false; retry: boolean; error: string };

/** What a channel needs for one attempt. */
export interface SendContext {
  /** The webhook URL or e-mail address. */
  target: string;
  /** The signing secret of the channel, when the topic has one. */
  secret: string | null;
  /** The stored payload JSON, exactly as stored (the generic webhook's body). */
  raw: string;
  payload: AnyNotificationPayload;
  timeoutMs: number;
  fetch: typeof fetch;
  now: () => number;
  smtp: SmtpSettings | null;
  /** The address policy every channel's connection obeys (internal addresses only when allowed). */
  policy: AddressPolicy;
  /** The HTTP channels' connections: resolved and checked by {@link policy} when they open (absent with a caller's own `fetch`). */
  dispatcher?: Dispatcher;
}

/** How the dashboard names each channel (English for now, with the platforms' own names). */
export const CHANNEL_LABELS: Readonly<Record<Channel, string>> = {
  webhook: "Webhook",
  email: "E-mail",
  dingtalk: "钉钉 DingTalk robot",
  wecom: "企业微信 WeCom robot",
  feishu: "飞书 Feishu bot",
};
