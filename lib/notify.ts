/**
 * Notifications of new flags, batched per crawl run: for every topic with a webhook URL and/or an
 * e-mail address, one message listing the flags the run opened. Each delivery is a Notification
 * row (pending → sent | failed, attempts, last error) that the dashboard shows and can retry.
 *
 * Delivery never throws and never blocks a crawl for long: every attempt has a timeout and the
 * retries are bounded. The crawler calls `void notifyNewFlags(db, runId)` after a run.
 *
 * Webhooks: POST application/json, retried on network errors, 408, 429 and 5xx.
 * E-mail: plain text through the SMTP server of SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASS,
 * SMTP_FROM (nodemailer; STARTTLS when the server offers it, TLS from the start on port 465).
 * Plain text on purpose: the message quotes crawled posts, and text cannot carry their markup.
 * Retried on connection errors and 4xx replies; a 5xx reply or a refused login is final. Without
 * SMTP settings an e-mail delivery is recorded as failed with that reason.
 */
import nodemailer from "nodemailer";
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
  /** Where e-mail goes. @default {@link smtpConfig} of the environment */
  smtp?: SmtpSettings | null;
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
export function smtpConfig(env = process.env): SmtpSettings | null {
  const host = env.SMTP_HOST?.trim();
  if (!host) return null;
  const user = env.SMTP_USER?.trim() ?? "";
  return { host, port: Number(env.SMTP_PORT?.trim() || 587), user, pass: env.SMTP_PASS ?? "", from: env.SMTP_FROM?.trim() || user };
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
    const outcome =
      n.channel === "webhook"
        ? await postWebhook(n.target, n.payload, timeoutMs, options.fetch ?? fetch)
        : await sendEmail(n.target, n.payload, options.smtp === undefined ? smtpConfig() : options.smtp, timeoutMs);
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
  const failed = await db.notification.findMany({ where: { status: "failed" }, select: { id: true }, take: 100 });
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

/** The plain-text message of a notification (see the module comment for why text). */
export function emailMessage(payload: NotificationPayload): { subject: string; text: string } {
  const { topic, crawlRun: run, flags } = payload;
  const n = flags.length;
  const subject = `[CampusWatch] ${n} new flag${n === 1 ? "" : "s"} for "${topic.name}" on ${run.account}`;
  const reasons = (r: unknown) =>
    Array.isArray(r)
      ? r.map((x: { kind?: string; detail?: string; word?: string }) => [x.kind, x.detail ?? x.word].filter(Boolean).join(": ")).join("; ")
      : String(r ?? "");
  const lines = [
    `CampusWatch flagged ${n} new post${n === 1 ? "" : "s"} for the topic "${topic.name}" while crawling ${run.account} (${run.platform}), run ${run.id}, ${run.finishedAt ?? run.startedAt}.`,
    "",
    ...flags.flatMap((f, i) => [
      `${i + 1}. ${f.title || "(no title)"} — score ${f.score.toFixed(2)}`,
      `   why: ${reasons(f.reasons)}`,
      `   by ${f.author || "unknown"}, ${f.publishedAt}`,
      `   ${f.excerpt}`,
      `   post: ${f.url}`,
      ...(f.dashboardUrl ? [`   review: ${f.dashboardUrl}`] : []),
      "",
    ]),
    "You receive this because this address is set for the topic in CampusWatch.",
  ];
  return { subject, text: lines.join("\n") };
}

async function sendEmail(to: string, payload: string, smtp: SmtpSettings | null, timeoutMs: number): Promise<Outcome> {
  if (!smtp) return { ok: false, retry: false, error: "failed: SMTP not configured (set SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASS, SMTP_FROM)" };
  if (!Number.isInteger(smtp.port) || smtp.port < 1 || smtp.port > 65535) return { ok: false, retry: false, error: `failed: SMTP_PORT must be a port number (got ${smtp.port})` };
  if (!smtp.from) return { ok: false, retry: false, error: "failed: set SMTP_FROM (or SMTP_USER) for the From address" };
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.port === 465,
    auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    await transport.sendMail({ from: smtp.from, to, ...emailMessage(JSON.parse(payload) as NotificationPayload) });
    return { ok: true };
  } catch (e) {
    const err = e as Error & { code?: string; responseCode?: number; response?: string };
    if (err.responseCode) {
      // 4xx: try again later (greylisting, busy); 5xx: the server refuses for good.
      return { ok: false, retry: err.responseCode < 500, error: `SMTP ${err.responseCode}: ${(err.response ?? err.message).slice(0, 300)}` };
    }
    if (err.code === "EAUTH") return { ok: false, retry: false, error: `SMTP login refused: ${err.message.slice(0, 300)}` };
    return { ok: false, retry: true, error: `network error: ${err.code ? `${err.code} ` : ""}${err.message.slice(0, 300)}` };
  } finally {
    transport.close();
  }
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
