/**
 * E-mail: plain text through the SMTP server of SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASS,
 * SMTP_FROM (nodemailer; STARTTLS when the server offers it, TLS from the start on port 465).
 * Plain text on purpose: the message quotes crawled posts, and text cannot carry their markup.
 * Retried on connection errors and 4xx replies; a 5xx reply or a refused login is final. Without
 * SMTP settings an e-mail delivery is recorded as failed with that reason.
 */
import nodemailer from "nodemailer";
import type { NotificationPayload, Outcome, SendContext, SmtpSettings } from "../types";

/** SMTP settings from the environment, or null when e-mail is not configured. */
export function smtpConfig(env = process.env): SmtpSettings | null {
  const host = env.SMTP_HOST?.trim();
  if (!host) return null;
  const user = env.SMTP_USER?.trim() ?? "";
  return { host, port: Number(env.SMTP_PORT?.trim() || 587), user, pass: env.SMTP_PASS ?? "", from: env.SMTP_FROM?.trim() || user };
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

/** Send one notification by e-mail. */
export async function sendEmail(ctx: SendContext): Promise<Outcome> {
  const { smtp, timeoutMs } = ctx;
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
    await transport.sendMail({ from: smtp.from, to: ctx.target, ...emailMessage(ctx.payload) });
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
