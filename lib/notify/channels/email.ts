/**
 * E-mail: plain text through the SMTP server of SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASS,
 * SMTP_FROM (nodemailer; STARTTLS when the server offers it, TLS from the start on port 465).
 * Plain text on purpose: the message quotes crawled posts, and text cannot carry their markup.
 * Chinese first, like the chat channels, with one English line at the end for operators.
 * Retried on connection errors and 4xx replies; a 5xx reply or a refused login is final. Without
 * SMTP settings an e-mail delivery is recorded as failed with that reason.
 */
import { messageTitle, PLATFORM_ZH, reasonsZh, shanghaiTime } from "../message";
import type { NotificationPayload, Outcome, SendContext, SmtpSettings } from "../types";
import { isLoginExpired, loginEmail } from "../login";
import { incidentEmail, isIncidentAlert } from "../incident";
import { deletionEmail, isDeletion } from "../deletion";
import { caseEmail, isCaseAssigned } from "../case";
import { AddressRefusedError, isIpLiteral } from "../../net/address";

/** SMTP settings from the environment, or null when e-mail is not configured. */
export function smtpConfig(env = process.env): SmtpSettings | null {
  const host = env.SMTP_HOST?.trim();
  if (!host) return null;
  const user = env.SMTP_USER?.trim() ?? "";
  return { host, port: Number(env.SMTP_PORT?.trim() || 587), user, pass: env.SMTP_PASS ?? "", from: env.SMTP_FROM?.trim() || user };
}

/** Crawled text on one line, cut to `max` characters: a plain-text mail needs no escaping. */
const oneLine = (text: string, max: number): string => {
  const chars = Array.from(text.replace(/\s+/g, " ").trim());
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : chars.join("");
};

/**
 * The plain-text message of a notification (see the module comment for why text), in Chinese like
 * the chat channels: `【CampusWatch】考试：2 条新预警`, then each flag with platform, account,
 * author, time (Asia/Shanghai), why it was flagged (`敏感词 作弊`), the post and the review link.
 */
export function emailMessage(payload: NotificationPayload): { subject: string; text: string } {
  const { topic, crawlRun: run, flags } = payload;
  const total = Math.max(payload.total ?? flags.length, flags.length);
  const platform = PLATFORM_ZH[run.platform] ?? run.platform;
  const subject = `${messageTitle(oneLine(topic.name, 60), total)}（${oneLine(run.account, 40)}）`;
  const lines = [
    `主题“${topic.name}”：抓取 ${run.account}（${platform}）时新增 ${total} 条预警（抓取记录 #${run.id}，${shanghaiTime(run.finishedAt ?? run.startedAt)}）。`,
    "",
    ...flags.flatMap((f, i) => [
      `${i + 1}. ${oneLine(f.title, 100) || oneLine(f.excerpt, 40) || "（无标题）"} — 得分 ${f.score.toFixed(2)}`,
      `   原因：${reasonsZh(f.reasons, f.score) || "—"}`,
      `   ${[platform, f.author ? `作者 ${oneLine(f.author, 40)}` : "", shanghaiTime(f.publishedAt)].filter(Boolean).join(" · ")}`,
      `   ${f.excerpt}`,
      `   原帖：${f.url}`,
      ...(f.dashboardUrl ? [`   复核：${f.dashboardUrl}`] : []),
      "",
    ]),
    ...(total > flags.length ? [`还有 ${total - flags.length} 条未列出。`, ""] : []),
    ...(payload.topicUrl ? [`查看全部预警：${payload.topicUrl}`, ""] : []),
    "你收到这封邮件，是因为 CampusWatch 中这个主题的通知邮箱设为此地址。",
    `CampusWatch: ${total} new flag${total === 1 ? "" : "s"} for the topic "${topic.name}" on ${run.account}.`,
  ];
  return { subject, text: lines.join("\n") };
}

/** An SMTP_HOST as a URL host: a bare IPv6 address in brackets. */
function smtpHostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** Send one notification by e-mail. */
export async function sendEmail(ctx: SendContext): Promise<Outcome> {
  const p = ctx.payload;
  return sendMail(ctx, {
    to: ctx.target,
    ...(isLoginExpired(p)
      ? loginEmail(p)
      : isIncidentAlert(p)
        ? incidentEmail(p)
        : isDeletion(p)
          ? deletionEmail(p)
          : isCaseAssigned(p)
            ? caseEmail(p)
            : emailMessage(p)),
  });
}

/** One e-mail as {@link sendMail} sends it: plain text, optionally with attached files (a report's PDF). */
export interface MailMessage {
  /** One address or several. */
  to: string | readonly string[];
  subject: string;
  text: string;
  attachments?: readonly { filename: string; content: Buffer; contentType: string }[];
}

/**
 * Send one e-mail through the configured SMTP server, the one way CampusWatch sends mail: the
 * server's address passes the address policy first. Says whether it went and whether trying
 * again may help, never throws.
 */
export async function sendMail(ctx: Pick<SendContext, "smtp" | "policy" | "timeoutMs">, message: MailMessage): Promise<Outcome> {
  const { smtp, timeoutMs } = ctx;
  if (!smtp) return { ok: false, retry: false, error: "failed: SMTP not configured (set SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASS, SMTP_FROM)" };
  if (!Number.isInteger(smtp.port) || smtp.port < 1 || smtp.port > 65535)
    return { ok: false, retry: false, error: `failed: SMTP_PORT must be a port number (got ${smtp.port})` };
  if (!smtp.from) return { ok: false, retry: false, error: "failed: set SMTP_FROM (or SMTP_USER) for the From address" };
  // The SMTP host passes the address policy like any outgoing request; nodemailer then connects to
  // the checked address (no second DNS answer), with the host's name for TLS (servername).
  let address: string;
  try {
    address = (await ctx.policy.check(`smtp://${smtpHostForUrl(smtp.host)}:${smtp.port}`))[0]!.address;
  } catch (e) {
    if (e instanceof AddressRefusedError) return { ok: false, retry: false, error: e.message };
    const err = e as Error & { code?: string };
    return { ok: false, retry: true, error: `network error: ${err.code ? `${err.code} ` : ""}${err.message.slice(0, 300)}` };
  }
  // Loaded when a mail is sent, not with the crawler: nodemailer takes ~40 ms to load (issue 17).
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    host: address,
    servername: isIpLiteral(smtp.host) ? undefined : smtp.host,
    port: smtp.port,
    secure: smtp.port === 465,
    auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    await transport.sendMail({
      from: smtp.from,
      to: typeof message.to === "string" ? message.to : [...message.to],
      subject: message.subject,
      text: message.text,
      ...(message.attachments ? { attachments: message.attachments.map((a) => ({ ...a })) } : {}),
    });
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
