/**
 * Notifications of new flags, batched per crawl run: for every topic with notification channels,
 * one message per channel listing the flags the run opened. Channels (./channels/): the generic
 * webhook (JSON, optionally HMAC-signed), e-mail, 钉钉 DingTalk robot, 企业微信 WeCom robot and 飞书
 * Feishu bot (Chinese markdown / rich text, ./message.ts). Each delivery is a Notification row
 * (pending → sent | failed, attempts, last error) that the dashboard shows and can retry.
 *
 * A run that found an account's login expired (需要重新登录) also sends one notice to every enabled
 * topic's channels, once per expiry (./login.ts). A run that marked deleted a flagged post or a
 * post of an open incident queues one notice per deletion (删帖提醒, ./deletion.ts), sent with the rest.
 *
 * Delivery never throws and never blocks a crawl for long: every attempt has a timeout and the
 * retries are bounded. After a run that may have something to say ({@link runMayNotify}) the crawler
 * queues a `notifyRun` job (crawler/jobs/), which calls {@link notifyRun}. Network
 * errors, HTTP 408, 429 and 5xx and the platforms' rate-limit codes are retried; a platform's other
 * error codes (wrong signature, wrong key) are final until someone fixes the settings and retries.
 *
 * Secrets (signing secrets, and the robot URLs with their tokens, all sealed in the topic's row)
 * are opened from the topic at delivery time, here and nowhere else, so fixing a topic's settings
 * and pressing Retry uses the fixed ones, and they never reach a Notification row: `target` keeps
 * the masked URL (origin + "…") and recorded errors have their URLs masked and any secret or
 * token removed.
 */
import type { Db } from "../db";
import { prepared } from "../sqlite-statements";
import { storesOf, type PlanDriver } from "../store";
import { anyJson, parseJsonColumn } from "../json-column";
import { maskUrlsIn } from "../mask";
import { SealError, unseal } from "../secret-box";
import {
  TOPIC_DINGTALK_SECRET,
  TOPIC_DINGTALK_WEBHOOK,
  TOPIC_FEISHU_SECRET,
  TOPIC_FEISHU_WEBHOOK,
  TOPIC_WEBHOOK_SECRET,
  TOPIC_WEBHOOK_URL,
  TOPIC_WECOM_WEBHOOK,
  type SealedColumn,
} from "../sealed-columns";
import { fetch as undiciFetch } from "undici";
import { allowInternalFromEnv } from "../config";
import { createAddressPolicy } from "../net/address";
import { createGuardedAgent } from "../net/guarded-agent";
import { sendDingtalk } from "./channels/dingtalk";
import { sendEmail, sendMail, smtpConfig, type MailMessage } from "./channels/email";
import { sendFeishu } from "./channels/feishu";
import { sendWebhook } from "./channels/webhook";
import { sendWecom } from "./channels/wecom";
import { loginExpiredPayloads, loginExpiryOf, LOGIN_PAYLOAD_PREFIX } from "./login";
import { INCIDENT_PAYLOAD_PREFIX } from "./incident";
import { DELETION_PAYLOAD_PREFIX } from "./deletion";
import { quietUntil } from "./quiet";
import {
  CHANNELS,
  type AnyNotificationPayload,
  type Channel,
  type NotificationPayload,
  type NotifyOptions,
  type NotifyResult,
  type Outcome,
  type SendContext,
} from "./types";

export type {
  AnyNotificationPayload,
  CaseAssignedPayload,
  IncidentAlertPayload,
  IncidentAlertReason,
  Channel,
  DeletionPayload,
  FlagSummary,
  LoginExpiredPayload,
  NotificationPayload,
  NotifyOptions,
  NotifyResult,
  SmtpSettings,
} from "./types";
export { CHANNELS, CHANNEL_LABELS } from "./types";
export { deletionKey, deletionPayloadStart, isDeletion } from "./deletion";
export { isCaseAssigned } from "./case";
export { emailMessage, smtpConfig } from "./channels/email";
export type { MailMessage } from "./channels/email";

const MAX_FLAGS_PER_MESSAGE = 200;

/** The topic columns that say where its notifications go. */
const CHANNEL_FIELDS = {
  webhookUrl: true,
  webhookUrlDisplay: true,
  webhookSecret: true,
  notifyEmail: true,
  dingtalkWebhook: true,
  dingtalkWebhookDisplay: true,
  dingtalkSecret: true,
  wecomWebhook: true,
  wecomWebhookDisplay: true,
  feishuWebhook: true,
  feishuWebhookDisplay: true,
  feishuSecret: true,
} as const;

/** The topic columns that say when a channel must stay quiet (./quiet.ts), and whether the topic overrides them. */
const QUIET_FIELDS = { urgent: true, webhookQuiet: true, emailQuiet: true, dingtalkQuiet: true, wecomQuiet: true, feishuQuiet: true } as const;

/** A channel's quiet-hours column. */
const QUIET_COLUMN: Readonly<Record<Channel, Exclude<keyof typeof QUIET_FIELDS, "urgent">>> = {
  webhook: "webhookQuiet",
  email: "emailQuiet",
  dingtalk: "dingtalkQuiet",
  wecom: "wecomQuiet",
  feishu: "feishuQuiet",
};

/** The topic's notification mode: which flags a run's batch lists (see the Topic.notifyMode column). */
export type NotifyMode = "incidents" | "flags" | "both";

/** Incident statuses whose flagged members are told by the incident's alert instead of the run's flag batch. */
const ALERTED_STATUSES = ["open", "handled"];

/** The columns that name a channel's target: a topic with none of them set sends nothing. */
const CHANNEL_TARGETS = ["webhookUrl", "notifyEmail", "dingtalkWebhook", "wecomWebhook", "feishuWebhook"] as const;

type TopicChannels = { [K in keyof typeof CHANNEL_FIELDS]: string | null };

/** One channel of a topic: where it goes and with which secret, both as stored (sealed), and what may be shown of the target. */
interface ChannelSetting {
  /** The stored target: a sealed URL (`targetSealedAs`), or an e-mail address; null: channel not set. */
  target: string | null;
  targetSealedAs: SealedColumn | null;
  /** The target as pages and the Notification row show it (a URL masked to its origin). */
  shown: string;
  secret: string | null;
  sealedAs: SealedColumn | null;
}

/** Where a topic sends one channel's messages now, and with which secret, still sealed. */
function channelOf(t: TopicChannels, channel: Channel): ChannelSetting {
  // A robot URL whose masked form is missing (never the case once written) is shown as "…".
  const shown = (display: string | null) => display ?? "…";
  switch (channel) {
    case "webhook":
      return {
        target: t.webhookUrl,
        targetSealedAs: TOPIC_WEBHOOK_URL,
        shown: shown(t.webhookUrlDisplay),
        secret: t.webhookSecret,
        sealedAs: TOPIC_WEBHOOK_SECRET,
      };
    case "email":
      return { target: t.notifyEmail, targetSealedAs: null, shown: t.notifyEmail ?? "", secret: null, sealedAs: null };
    case "dingtalk":
      return {
        target: t.dingtalkWebhook,
        targetSealedAs: TOPIC_DINGTALK_WEBHOOK,
        shown: shown(t.dingtalkWebhookDisplay),
        secret: t.dingtalkSecret,
        sealedAs: TOPIC_DINGTALK_SECRET,
      };
    case "wecom":
      return { target: t.wecomWebhook, targetSealedAs: TOPIC_WECOM_WEBHOOK, shown: shown(t.wecomWebhookDisplay), secret: null, sealedAs: null };
    case "feishu":
      return {
        target: t.feishuWebhook,
        targetSealedAs: TOPIC_FEISHU_WEBHOOK,
        shown: shown(t.feishuWebhookDisplay),
        secret: t.feishuSecret,
        sealedAs: TOPIC_FEISHU_SECRET,
      };
  }
}

const SENDERS: Record<Channel, (ctx: SendContext) => Promise<Outcome>> = {
  webhook: sendWebhook,
  email: sendEmail,
  dingtalk: sendDingtalk,
  wecom: sendWecom,
  feishu: sendFeishu,
};

const isChannel = (c: string): c is Channel => (CHANNELS as readonly string[]).includes(c);

/**
 * The probe's store, one operation → boolean, false when surely no topic has a notification
 * channel: on SQLite a prepared statement; through Prisma it does not ask (true), since the query
 * that follows it in {@link notifyNewFlags} finds out in one round trip anyway.
 */
const CHANNEL_PROBE: PlanDriver<"mayHaveChannels"> = {
  sqlite: (sql) => prepared(sql, `SELECT 1 FROM "Topic" WHERE ${CHANNEL_TARGETS.map((c) => `"${c}" IS NOT NULL`).join(" OR ")} LIMIT 1`).get() !== undefined,
  prisma: () => Promise.resolve(true),
};

/** False when no topic has a notification channel (see {@link CHANNEL_PROBE}). */
function mayHaveChannels(db: Db): Promise<boolean> {
  return storesOf(db).run(
    function* () {
      return (yield "mayHaveChannels") as boolean;
    },
    CHANNEL_PROBE,
    { transaction: false },
  );
}

/**
 * Deliver the flags opened during a crawl run to every topic that asks for notifications.
 * Flags count as the run's when they belong to the run's account and were created between the
 * run's start and its end. Returns what was done; never throws.
 */
export async function notifyNewFlags(db: Db, crawlRunId: number, options: NotifyOptions = {}): Promise<NotifyResult> {
  try {
    return await notifyRun(db, crawlRunId, options);
  } catch (e) {
    console.error(`notifyNewFlags(run ${crawlRunId}) failed:`, e);
    return { notifications: 0, sent: 0, failed: 0 };
  }
}

/**
 * True when a crawl run may have something to notify: some topic has a channel, and the run
 * opened flags on its account or found its login expired. Cheap when no topic has a channel (the
 * usual case), so the crawler asks after every run and queues a notification job only when it may.
 */
export async function runMayNotify(db: Db, crawlRunId: number): Promise<boolean> {
  if (!(await mayHaveChannels(db))) return false;
  const run = await db.crawlRun.findUnique({ where: { id: crawlRunId }, select: { accountId: true, startedAt: true, finishedAt: true, errors: true } });
  if (!run) return false;
  if (loginExpiryOf(run.errors)) return true;
  // Incident alerts the end of the run queued (crawler/incidents/alerts.ts) wait for this job to send them.
  if (await db.notification.findFirst({ where: { crawlRunId, status: "pending" }, select: { id: true } })) return true;
  const flag = await db.flag.findFirst({
    where: { createdAt: { gte: run.startedAt, lte: run.finishedAt ?? new Date() }, post: { accountId: run.accountId } },
    select: { id: true },
  });
  return flag !== null;
}

/**
 * {@link notifyNewFlags} for the jobs layer (the `notifyRun` job): the same work, but a failure
 * (the database gone away) is thrown, so the job that ran it records it instead of a log line.
 * Deliveries that fail are, as always, Notification rows marked failed, not throws.
 */
export async function notifyRun(db: Db, crawlRunId: number, options: NotifyOptions = {}): Promise<NotifyResult> {
  const result: NotifyResult = { notifications: 0, sent: 0, failed: 0 };
  // Topics first: with no channel anywhere (the usual case) the run is not even read, and on
  // SQLite a prepared statement says so without a Prisma query (this runs after every crawl run).
  if (!(await mayHaveChannels(db))) return result;
  const topics = await db.topic.findMany({
    where: { OR: CHANNEL_TARGETS.map((c) => ({ [c]: { not: null } })) },
    select: { id: true, name: true, enabled: true, notifyMode: true, ...CHANNEL_FIELDS },
  });
  if (topics.length === 0) return result;
  const run = await db.crawlRun.findUnique({ where: { id: crawlRunId }, include: { account: { select: { id: true, name: true, platform: true } } } });
  if (!run) return result;
  // The run's flag messages (its login-expired notice, incident alerts and deletion notices are counted apart below).
  const already = await db.notification.findMany({
    where: {
      crawlRunId,
      NOT: [
        { payload: { startsWith: LOGIN_PAYLOAD_PREFIX } },
        { payload: { startsWith: INCIDENT_PAYLOAD_PREFIX } },
        { payload: { startsWith: DELETION_PAYLOAD_PREFIX } },
      ],
    },
    select: { topicId: true, channel: true },
  });
  const until = run.finishedAt ?? new Date();
  const baseUrl = (options.baseUrl ?? process.env.CAMPUSWATCH_PUBLIC_URL ?? "").replace(/\/$/, "") || null;
  const created: number[] = [];
  for (const topic of topics) {
    // With incident alerts ("incidents", the default), a flag whose post belongs to an open or
    // handled incident is told by that incident's alert or update, not listed again per run.
    const onlyLoose =
      topic.notifyMode === "incidents" ? { OR: [{ incident: { is: null } }, { incident: { incident: { status: { notIn: ALERTED_STATUSES } } } }] } : {};
    const where = { topicId: topic.id, createdAt: { gte: run.startedAt, lte: until }, post: { accountId: run.accountId, ...onlyLoose } };
    const [flags, total] = await Promise.all([
      db.flag.findMany({
        where,
        orderBy: { id: "asc" },
        take: MAX_FLAGS_PER_MESSAGE,
        include: { post: { select: { id: true, url: true, title: true, text: true, author: true, publishedAt: true } } },
      }),
      db.flag.count({ where }),
    ]);
    if (flags.length === 0) continue;
    const payload: NotificationPayload = {
      event: "campuswatch.flags",
      topic: { id: topic.id, name: topic.name },
      topicUrl: baseUrl ? `${baseUrl}/?topic=${topic.id}` : null,
      crawlRun: {
        id: run.id,
        accountId: run.accountId,
        account: run.account.name,
        platform: run.account.platform,
        startedAt: run.startedAt.toISOString(),
        finishedAt: run.finishedAt?.toISOString() ?? null,
      },
      total,
      flags: flags.map((f) => ({
        flagId: f.id,
        postId: f.post.id,
        url: f.post.url,
        title: f.post.title,
        excerpt: f.post.text.replace(/\s+/g, " ").slice(0, 200),
        author: f.post.author,
        publishedAt: f.post.publishedAt.toISOString(),
        score: f.score,
        reasons: safeJson(f.reasons),
        dashboardUrl: baseUrl ? `${baseUrl}/posts/${f.post.id}` : null,
      })),
    };
    for (const channel of CHANNELS) {
      const { target, shown } = channelOf(topic, channel);
      if (!target) continue;
      // A run is notified once per topic and channel, even if this is called again.
      if (already.some((a) => a.topicId === topic.id && a.channel === channel)) continue;
      const n = await db.notification.create({
        data: { topicId: topic.id, crawlRunId, channel, target: shown, payload: JSON.stringify(payload), status: "pending" },
      });
      created.push(n.id);
    }
  }
  // An expired login (需要重新登录), once per expiry, to every enabled topic's channels (./login.ts).
  const enabled = topics.filter((t) => t.enabled);
  for (const payload of await loginExpiredPayloads(db, run, enabled, baseUrl)) {
    const topic = enabled.find((t) => t.id === payload.topic.id)!;
    for (const channel of CHANNELS) {
      const { target, shown } = channelOf(topic, channel);
      if (!target) continue;
      const n = await db.notification.create({
        data: { topicId: topic.id, crawlRunId, channel, target: shown, payload: JSON.stringify(payload), status: "pending" },
      });
      created.push(n.id);
    }
  }
  // Incident alerts and updates (crawler/incidents/alerts.ts) and deletion notices
  // (crawler/worker/deletions.ts) queued at the end of the run.
  const queued = await db.notification.findMany({
    where: { crawlRunId, status: "pending", OR: [{ payload: { startsWith: INCIDENT_PAYLOAD_PREFIX } }, { payload: { startsWith: DELETION_PAYLOAD_PREFIX } }] },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  created.push(...queued.map((q) => q.id));
  result.notifications = created.length;
  for (const id of created) count(result, await deliverNotification(db, id, options));
  return result;
}

/** Add one delivery's outcome to a result. */
function count(result: NotifyResult, status: "sent" | "failed" | "held"): void {
  if (status === "sent") result.sent++;
  else if (status === "held") result.held = (result.held ?? 0) + 1;
  else result.failed++;
}

/**
 * Queue one message of a topic on each of its channels (pending Notification rows, sent by the
 * run's notifyRun job or by {@link deliverPending}); the ids made. For an incident's message, a
 * message of the same incident still held on a channel (quiet hours) is brought up to date instead,
 * so a night of updates wakes the group with one message, not a pile.
 */
export async function queueTopicMessage(
  db: Db,
  topicId: number,
  payload: AnyNotificationPayload,
  opts: { crawlRunId?: number | null; incidentId?: number | null } = {},
): Promise<number[]> {
  const topic = await db.topic.findUnique({ where: { id: topicId }, select: CHANNEL_FIELDS });
  if (!topic) return [];
  const json = JSON.stringify(payload);
  const ids: number[] = [];
  for (const channel of CHANNELS) {
    const { target, shown } = channelOf(topic, channel);
    if (!target) continue;
    if (opts.incidentId != null) {
      const held = await db.notification.updateMany({ where: { topicId, channel, incidentId: opts.incidentId, status: "held" }, data: { payload: json } });
      if (held.count > 0) continue;
    }
    const n = await db.notification.create({
      data: { topicId, crawlRunId: opts.crawlRunId ?? null, incidentId: opts.incidentId ?? null, channel, target: shown, payload: json, status: "pending" },
    });
    ids.push(n.id);
  }
  return ids;
}

/**
 * Send what waits: pending messages (queued by a periodic incident check, or left by a job that
 * stopped) and held ones whose quiet hours have ended (`clock` says when). For the
 * periodic incident job (crawler/jobs).
 */
export async function deliverPending(db: Db, options: NotifyOptions = {}): Promise<NotifyResult> {
  const now = new Date((options.clock ?? Date.now)());
  const due = await db.notification.findMany({
    where: {
      OR: [
        { status: "pending", crawlRunId: null },
        { status: "held", notBefore: { lte: now } },
      ],
    },
    select: { id: true },
    orderBy: { id: "asc" },
    take: 200,
  });
  const result: NotifyResult = { notifications: due.length, sent: 0, failed: 0 };
  for (const d of due) count(result, await deliverNotification(db, d.id, options));
  return result;
}

/**
 * Mark a notification "pending" again, to be sent by the next notify job (the dashboard's Retry,
 * server/jobs.ts). False when it does not exist or was sent meanwhile: a sent one is never re-sent.
 */
export async function markNotificationPending(db: Db, id: number): Promise<boolean> {
  const marked = await db.notification.updateMany({ where: { id, status: { not: "sent" } }, data: { status: "pending" } });
  return marked.count > 0;
}

/**
 * Try (again) to deliver one notification; records attempts, the outcome and the last error.
 * It goes where the topic's settings point now (a fixed URL or secret takes effect on Retry); a
 * channel since removed from the topic fails with that reason.
 */
export async function deliverNotification(db: Db, id: number, options: NotifyOptions = {}): Promise<"sent" | "failed" | "held"> {
  const n = await db.notification.findUnique({ where: { id }, include: { topic: { select: { ...CHANNEL_FIELDS, ...QUIET_FIELDS } } } });
  if (!n) return "failed";
  if (n.status === "sent") return "sent";
  // Quiet hours of the channel hold the message until they end, unless the topic is urgent.
  if (isChannel(n.channel) && !n.topic.urgent) {
    const until = quietUntil(n.topic[QUIET_COLUMN[n.channel]], new Date((options.clock ?? Date.now)()));
    if (until) {
      await db.notification.update({ where: { id }, data: { status: "held", notBefore: until } });
      return "held";
    }
  }
  const fail = async (lastError: string) => {
    await db.notification.update({ where: { id }, data: { status: "failed", lastError } });
    return "failed" as const;
  };
  if (!isChannel(n.channel)) return fail(`unknown channel "${n.channel}"`);
  const { target: storedTarget, targetSealedAs, shown, secret: sealedSecret, sealedAs } = channelOf(n.topic, n.channel);
  if (!storedTarget) return fail(`the topic no longer has this channel (${n.channel}); nothing sent`);
  // The robot URL and the signing secret are opened here, the one place they are used, and only for this delivery.
  let target = storedTarget;
  if (targetSealedAs) {
    try {
      target = unseal(storedTarget, targetSealedAs, n.topicId);
    } catch (e) {
      if (!(e instanceof SealError)) throw e;
      return fail(`the topic's stored ${n.channel} URL cannot be used (${e.message}): set it again; nothing sent`);
    }
  }
  let secret: string | null = null;
  if (sealedSecret && sealedAs) {
    try {
      secret = unseal(sealedSecret, sealedAs, n.topicId);
    } catch (e) {
      if (!(e instanceof SealError)) throw e;
      return fail(`the topic's stored ${n.channel} secret cannot be used (${e.message}): set it again; nothing sent`);
    }
  }
  const stored = parseJsonColumn(n.payload, anyJson, undefined);
  if (stored === undefined) return fail("the stored message is not valid JSON");
  const payload = stored as AnyNotificationPayload;
  // Where the message goes is checked like any outgoing request: an internal address only when allowed.
  const policy = createAddressPolicy({
    trustedHosts: [],
    allowInternal: options.allowInternal ?? allowInternalFromEnv(),
    resolve: options.resolve,
    refusalReason: NOTIFY_REFUSAL,
  });
  const dispatcher = options.fetch ? undefined : createGuardedAgent(policy);
  try {
    return await deliver(db, { id, attempts: n.attempts, channel: n.channel, shown }, options, {
      target,
      secret,
      raw: n.payload,
      payload,
      timeoutMs: options.timeoutMs ?? 10_000,
      // undici's own fetch: the guarded dispatcher is an undici Agent of the same version.
      fetch: options.fetch ?? (undiciFetch as unknown as typeof fetch),
      now: options.now ?? Date.now,
      smtp: options.smtp === undefined ? smtpConfig() : options.smtp,
      policy,
      dispatcher,
    });
  } finally {
    await dispatcher?.close();
  }
}

/**
 * Send one e-mail that is not a topic's notification (a scheduled report) through the e-mail
 * channel: the SMTP settings of the environment and the same address policy as every notification.
 * Tried up to `attempts` times when the failure may pass (a 4xx reply, a network error).
 * @returns the outcome of the last attempt
 */
export async function sendOwnMail(message: MailMessage, options: NotifyOptions = {}): Promise<Outcome> {
  const policy = createAddressPolicy({
    trustedHosts: [],
    allowInternal: options.allowInternal ?? allowInternalFromEnv(),
    resolve: options.resolve,
    refusalReason: NOTIFY_REFUSAL,
  });
  const ctx = { smtp: options.smtp === undefined ? smtpConfig() : options.smtp, policy, timeoutMs: options.timeoutMs ?? 10_000 };
  const attempts = options.attempts ?? 3;
  let outcome: Outcome = { ok: false, retry: false, error: "not sent" };
  for (let i = 1; i <= attempts; i++) {
    outcome = await sendMail(ctx, message);
    if (outcome.ok || !outcome.retry || i === attempts) break;
    await sleep((options.backoffMs ?? DEFAULT_BACKOFF)(i));
  }
  return outcome;
}

/** The delay before the n-th retry of a delivery: 1 s, 4 s, 16 s… */
const DEFAULT_BACKOFF = (retry: number) => 1000 * 4 ** (retry - 1);

/** Why a channel may not reach an internal address, in its refusal. */
const NOTIFY_REFUSAL = "internal addresses are refused for notifications; list an in-house receiver or relay in CAMPUSWATCH_ALLOW_INTERNAL";

/** The attempts of one delivery (see {@link deliverNotification}). */
async function deliver(
  db: Db,
  n: { id: number; attempts: number; channel: Channel; shown: string },
  options: NotifyOptions,
  ctx: SendContext,
): Promise<"sent" | "failed"> {
  // The row records where it went as it may be shown: never the opened URL.
  const { id, shown } = n;
  const { target, secret } = ctx;
  const attempts = Math.max(1, options.attempts ?? 3);
  const backoff = options.backoffMs ?? DEFAULT_BACKOFF;
  const secrets = secretsOf(target, secret);
  let lastError = "";
  let made = n.attempts;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await sleep(backoff(i));
    made++;
    const outcome = await SENDERS[n.channel](ctx);
    if (outcome.ok) {
      await db.notification.update({ where: { id }, data: { status: "sent", attempts: made, sentAt: new Date(), lastError: null, target: shown } });
      return "sent";
    }
    lastError = redact(outcome.error, secrets);
    await db.notification.update({ where: { id }, data: { attempts: made, lastError, target: shown } });
    if (!outcome.retry) break;
  }
  await db.notification.update({ where: { id }, data: { status: "failed", attempts: made, lastError } });
  return "failed";
}

/** Retry every failed notification (for a periodic job or the dashboard). */
export async function retryFailedNotifications(db: Db, options: NotifyOptions = {}): Promise<NotifyResult> {
  const failed = await db.notification.findMany({ where: { status: "failed" }, select: { id: true }, take: 100 });
  const result: NotifyResult = { notifications: failed.length, sent: 0, failed: 0 };
  for (const f of failed) {
    await db.notification.update({ where: { id: f.id }, data: { status: "pending" } });
    if ((await deliverNotification(db, f.id, options)) === "sent") result.sent++;
    else result.failed++;
  }
  return result;
}

/**
 * What must never appear in a recorded error: the secret, and the credentials inside the target
 * URL (DingTalk's access_token, WeCom's key, the Feishu hook id — query values and path segments).
 */
function secretsOf(target: string, secret: string | null): string[] {
  const out = secret ? [secret] : [];
  try {
    const u = new URL(target);
    for (const v of u.searchParams.values()) if (v.length >= 12) out.push(v, encodeURIComponent(v));
    // Path segments that look like tokens (long, with a digit), not words such as "open-apis".
    for (const seg of u.pathname.split("/")) if (seg.length >= 16 && /\d/.test(seg)) out.push(seg);
  } catch {
    // An e-mail address: nothing secret in it.
  }
  return [...new Set(out.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
}

/** An error message with URLs masked (lib/mask.ts) and every secret cut out, at most 500 characters. */
function redact(error: string, secrets: readonly string[]): string {
  let s = maskUrlsIn(error);
  for (const x of secrets) s = s.split(x).join("…");
  return s.slice(0, 500);
}

/** A JSON column's value, or its text as it is when that is not JSON. */
function safeJson(s: string): unknown {
  return parseJsonColumn(s, anyJson, s);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
