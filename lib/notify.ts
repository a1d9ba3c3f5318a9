/**
 * Notifications of new flags, batched per crawl run: for every topic with a webhook URL and/or an
 * e-mail address, one message listing the flags the run opened. Each delivery is a Notification
 * row (pending → sent | failed, attempts, last error) that the dashboard shows and can retry.
 *
 * Delivery never throws and never blocks a crawl for long: every attempt has a timeout and the
 * retries are bounded. The crawler calls `void notifyNewFlags(db, runId)` after a run.
 *
 * Webhooks: POST application/json, retried on network errors, 408, 429 and 5xx.
 * E-mail: needs SMTP settings (SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASS, SMTP_FROM) and an SMTP
 * client; none is installed in this project, so e-mail deliveries are recorded as failed with the
 * reason rather than pretending to be sent.
 */
import type { Db } from "./db";

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

export interface NotificationPayload {
  event: "campuswatch.flags";
  topic: { id: number; name: string };
  crawlRun: { id: number; accountId: number; account: string; platform: string; startedAt: string; finishedAt: string | null };
  flags: FlagSummary[];
}

export interface NotifyResult {
  notifications: number;
  sent: number;
  failed: number;
}

const MAX_FLAGS_PER_MESSAGE = 200;

/** SMTP settings from the environment, or null when e-mail is not configured. */
export function smtpConfig(env = process.env) {
  const host = env.SMTP_HOST?.trim();
  if (!host) return null;
  return { host, port: Number(env.SMTP_PORT ?? 587), user: env.SMTP_USER ?? "", from: env.SMTP_FROM ?? env.SMTP_USER ?? "" };
}

/**
 * Deliver the flags opened during a crawl run to every topic that asks for notifications.
 * Flags count as the run's when they belong to the run's account and were created between the
 * run's start and its end. Returns what was done; never throws.
 */
export async function notifyNewFlags(db: Db, crawlRunId: number, options: NotifyOptions = {}): Promise<NotifyResult> {
  const result: NotifyResult = { notifications: 0, sent: 0, failed: 0 };
  try {
    const run = await db.crawlRun.findUnique({ where: { id: crawlRunId }, include: { account: { select: { id: true, name: true, platform: true } } } });
    if (!run) return result;
    const topics = await db.topic.findMany({
      where: { OR: [{ webhookUrl: { not: null } }, { notifyEmail: { not: null } }] },
      select: { id: true, name: true, webhookUrl: true, notifyEmail: true },
    });
    if (topics.length === 0) return result;
    const already = await db.notification.findMany({ where: { crawlRunId }, select: { topicId: true, channel: true } });
    const until = run.finishedAt ?? new Date();
    const baseUrl = (options.baseUrl ?? process.env.CAMPUSWATCH_PUBLIC_URL ?? "").replace(/\/$/, "") || null;
    const created: number[] = [];
    for (const topic of topics) {
      const flags = await db.flag.findMany({
        where: { topicId: topic.id, createdAt: { gte: run.startedAt, lte: until }, post: { accountId: run.accountId } },
        orderBy: { id: "asc" },
        take: MAX_FLAGS_PER_MESSAGE,
        include: { post: { select: { id: true, url: true, title: true, text: true, author: true, publishedAt: true } } },
      });
      if (flags.length === 0) continue;
      const payload: NotificationPayload = {
        event: "campuswatch.flags",
        topic: { id: topic.id, name: topic.name },
        crawlRun: {
          id: run.id,
          accountId: run.accountId,
          account: run.account.name,
          platform: run.account.platform,
          startedAt: run.startedAt.toISOString(),
          finishedAt: run.finishedAt?.toISOString() ?? null,
        },
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
      const targets: { channel: "webhook" | "email"; target: string }[] = [];
      if (topic.webhookUrl) targets.push({ channel: "webhook", target: topic.webhookUrl });
      if (topic.notifyEmail) targets.push({ channel: "email", target: topic.notifyEmail });
      for (const t of targets) {
        // A run is notified once per topic and channel, even if this is called again.
        if (already.some((a) => a.topicId === topic.id && a.channel === t.channel)) continue;
        const n = await db.notification.create({
          data: { topicId: topic.id, crawlRunId, channel: t.channel, target: t.target, payload: JSON.stringify(payload), status: "pending" },
        });
        created.push(n.id);
      }
    }
    result.notifications = created.length;
    for (const id of created) {
      const status = await deliverNotification(db, id, options);
      if (status === "sent") result.sent++;
      else result.failed++;
    }
  } catch (e) {
    console.error(`notifyNewFlags(run ${crawlRunId}) failed:`, e);
  }
  return result;
}

/** Try (again) to deliver one notification; records attempts, the outcome and the last error. */
export async function deliverNotification(db: Db, id: number, options: NotifyOptions = {}): Promise<"sent" | "failed"> {
  const n = await db.notification.findUnique({ where: { id }, include: { topic: { select: { name: true } } } });
  if (!n) return "failed";
  if (n.status === "sent") return "sent";
  const attempts = Math.max(1, options.attempts ?? 3);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const backoff = options.backoffMs ?? ((retry: number) => 1000 * 4 ** (retry - 1));
  let lastError = "";
  let made = n.attempts;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await sleep(backoff(i));
    made++;
    const outcome = n.channel === "webhook" ? await postWebhook(n.target, n.payload, timeoutMs, options.fetch ?? fetch) : sendEmail();
    if (outcome.ok) {
      await db.notification.update({ where: { id }, data: { status: "sent", attempts: made, sentAt: new Date(), lastError: null } });
      return "sent";
    }
    lastError = outcome.error;
    await db.notification.update({ where: { id }, data: { attempts: made, lastError } });
    if (!outcome.retry) break;
  }
  await db.notification.update({ where: { id }, data: { status: "failed", attempts: made, lastError } });
  return "failed";
}

/** Retry every failed notification (for a periodic job or the dashboard). */
export async function retryFailedNotifications(db: Db, options: NotifyOptions = {}): Promise<NotifyResult> {
  const failed = await db.notification.findMany({ where: { status: "failed", channel: "webhook" }, select: { id: true }, take: 100 });
  const result: NotifyResult = { notifications: failed.length, sent: 0, failed: 0 };
  for (const f of failed) {
    await db.notification.update({ where: { id: f.id }, data: { status: "pending" } });
    if ((await deliverNotification(db, f.id, options)) === "sent") result.sent++;
    else result.failed++;
  }
  return result;
}

type Outcome = { ok: true } | { ok: false; retry: boolean; error: string };

async function postWebhook(url: string, payload: string, timeoutMs: number, doFetch: typeof fetch): Promise<Outcome> {
  try {
    const res = await doFetch(url, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", "user-agent": "CampusWatch/0.1 (notifications)" },
      body: payload,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    });
    // Drain the body so the connection can be reused; its content does not matter.
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok) return { ok: true };
    const retry = res.status === 408 || res.status === 429 || res.status >= 500;
    return { ok: false, retry, error: `HTTP ${res.status} ${res.statusText}`.trim() };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    const why = err.name === "TimeoutError" ? `timed out after ${timeoutMs} ms` : (err.cause?.code ?? err.cause?.message ?? err.message);
    return { ok: false, retry: true, error: `network error: ${why}` };
  }
}

function sendEmail(): Outcome {
  if (!smtpConfig()) return { ok: false, retry: false, error: "failed: SMTP not configured (set SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASS, SMTP_FROM)" };
  return { ok: false, retry: false, error: "failed: no SMTP client is installed in this deployment; e-mail cannot be sent" };
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
