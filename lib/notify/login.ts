/**
 * "需要重新登录": telling the operators that an account's login cookies expired.
 *
 * The crawler records an expired login on the run as an error of kind `LoginExpired` (naming the
 * URL that showed the logged-out page) and marks the account "relogin". This module turns the
 * first such run into one message per channel of every enabled topic. Topics are not linked to
 * accounts, so every enabled topic with a channel hears about it: whoever watches any topic
 * depends on the account being crawled.
 *
 * Once: a run's expiry is notified only when the account's previous run that showed its login
 * state either way (an expiry, or a run that read pages: ok / partial) was not an expiry already.
 * Runs before the cookies were last set do not count, so new cookies that expire again are
 * notified again. Failed runs for other reasons (a network error) tell nothing and are skipped.
 *
 * The texts are Chinese like the flag messages (./message.ts), with the same escaping: the account
 * name is typed by an operator, but it still goes through the markdown escaping.
 */
import type { Db } from "../db";
import { jsonArray, parseJsonColumn } from "../json-column";
import { linkUrl, markdownText, oneLine, PLATFORM_ZH, plainText, shanghaiTime, type FeishuElement } from "./message";
import type { AnyNotificationPayload, LoginExpiredPayload } from "./types";

/** The kind the crawler records on the run (crawler/errors.ts LoginExpiredError). */
export const LOGIN_EXPIRED_KIND = "LoginExpired";

/** How a stored login payload starts (`event` is its first key). */
export const LOGIN_PAYLOAD_PREFIX = '{"event":"campuswatch.login-expired"';

const KIND_IN_ERRORS = `"kind":"${LOGIN_EXPIRED_KIND}"`;

/** True for a login-expired payload (as opposed to a run's flags). */
export function isLoginExpired(p: AnyNotificationPayload): p is LoginExpiredPayload {
  return p.event === "campuswatch.login-expired";
}

/** What {@link loginExpiredPayloads} needs of the run. */
export interface LoginRun {
  id: number;
  accountId: number;
  startedAt: Date;
  finishedAt: Date | null;
  errors: string;
}

/** The run's LoginExpired error ({url, reason}), or null. */
export function loginExpiryOf(errors: string): { url: string | null; reason: string } | null {
  if (!errors.includes(KIND_IN_ERRORS)) return null;
  const list = parseJsonColumn(errors, jsonArray, []) as ({ kind?: unknown; url?: unknown; reason?: unknown } | null)[];
  for (const e of list) {
    if (e?.kind === LOGIN_EXPIRED_KIND) return { url: typeof e.url === "string" ? e.url : null, reason: typeof e.reason === "string" ? e.reason : "" };
  }
  return null;
}

/** Was this expiry already notified by an earlier run (see the module comment)? */
async function alreadyNotified(db: Db, run: LoginRun, cookiesSetAt: Date | null): Promise<boolean> {
  const previous = await db.crawlRun.findFirst({
    where: {
      accountId: run.accountId,
      id: { lt: run.id },
      ...(cookiesSetAt ? { startedAt: { gte: cookiesSetAt } } : {}),
      OR: [{ errors: { contains: KIND_IN_ERRORS } }, { status: { in: ["ok", "partial"] } }],
    },
    orderBy: { id: "desc" },
    select: { errors: true },
  });
  return previous !== null && loginExpiryOf(previous.errors) !== null;
}

/**
 * The login-expired message of a run, one per topic, when this run is the first to see this
 * expiry; [] otherwise (no LoginExpired error, already notified by an earlier run or by an
 * earlier call for this run).
 */
export async function loginExpiredPayloads(
  db: Db,
  run: LoginRun,
  topics: readonly { id: number; name: string }[],
  baseUrl: string | null,
): Promise<LoginExpiredPayload[]> {
  const expiry = loginExpiryOf(run.errors);
  if (!expiry || topics.length === 0) return [];
  const account = await db.account.findUnique({
    where: { id: run.accountId },
    select: { id: true, name: true, platform: true, entryUrl: true, cookiesSetAt: true },
  });
  if (!account) return [];
  if (await db.notification.count({ where: { crawlRunId: run.id, payload: { startsWith: LOGIN_PAYLOAD_PREFIX } } })) return [];
  if (await alreadyNotified(db, run, account.cookiesSetAt)) return [];
  return topics.map((topic) => ({
    event: "campuswatch.login-expired",
    topic: { id: topic.id, name: topic.name },
    account: { id: account.id, name: account.name, platform: account.platform, entryUrl: account.entryUrl },
    crawlRun: { id: run.id, startedAt: run.startedAt.toISOString(), finishedAt: run.finishedAt?.toISOString() ?? null },
    url: expiry.url,
    reason: expiry.reason,
    accountUrl: baseUrl ? `${baseUrl}/accounts/${account.id}` : null,
  }));
}

/** `【CampusWatch】需要重新登录：校园BBS 水区` (the account name not yet escaped). */
function loginTitle(account: string): string {
  return `【CampusWatch】需要重新登录：${account}`;
}

/** The lines every channel says, escaped with `esc`. */
function loginLines(
  p: LoginExpiredPayload,
  esc: (text: string, max: number) => string,
): { title: string; intro: string; where: string; what: string; once: string } {
  const platform = PLATFORM_ZH[p.account.platform] ?? p.account.platform;
  const account = esc(p.account.name, 40);
  return {
    title: loginTitle(account),
    intro: `${account}（${esc(platform, 10)}）的登录已失效：网站把抓取当作未登录的访客（${shanghaiTime(p.crawlRun.finishedAt ?? p.crawlRun.startedAt)}，抓取记录 #${p.crawlRun.id}）。`,
    where: `出现未登录页面的地址：${p.url ? esc(p.url, 200) : "—"}`,
    what: `请在浏览器中重新登录${esc(platform, 10)}，导出 Cookie，在 CampusWatch 的账号页面重新设置。在此之前，该账号的每次抓取都会停下，不会把未登录时看到的页面当作内容保存。`,
    once: "此提醒每次失效只发送一次。",
  };
}

/** DingTalk / WeCom markdown (see ./message.ts markdownMessage for `lineBreak`). */
export function loginMarkdown(p: LoginExpiredPayload, opts: { lineBreak: string; heading?: string }): { title: string; text: string } {
  const m = loginLines(p, markdownText);
  const link = linkUrl(p.accountUrl);
  const lines = [`${opts.heading ?? "###"} ${m.title}`, m.intro, m.where, m.what, ...(link ? [`[在 CampusWatch 打开该账号](${link})`] : []), m.once];
  return { title: m.title, text: lines.join(opts.lineBreak) };
}

/** The Feishu `post` message (plain text elements and `a` tags only). */
export function loginFeishuPost(p: LoginExpiredPayload): { msg_type: "post"; content: { post: { zh_cn: { title: string; content: FeishuElement[][] } } } } {
  const m = loginLines(p, plainText);
  const text = (t: string): FeishuElement => ({ tag: "text", text: t });
  const link = linkUrl(p.accountUrl);
  const content: FeishuElement[][] = [[text(m.intro)], [text(m.where)], [text(m.what)]];
  if (link) content.push([{ tag: "a", text: "在 CampusWatch 打开该账号", href: link }]);
  content.push([text(m.once)]);
  return { msg_type: "post", content: { post: { zh_cn: { title: m.title, content } } } };
}

/** The plain-text e-mail: Chinese, with one English line at the end for operators. */
export function loginEmail(p: LoginExpiredPayload): { subject: string; text: string } {
  const m = loginLines(p, oneLine);
  const lines = [
    m.intro,
    "",
    m.where,
    `网站的回答：${p.reason || "—"}`,
    "",
    m.what,
    ...(p.accountUrl ? [`账号页面：${p.accountUrl}`] : []),
    "",
    m.once,
    `你收到这封邮件，是因为 CampusWatch 中主题“${oneLine(p.topic.name, 60)}”的通知邮箱设为此地址。`,
    `CampusWatch: the login of the account "${p.account.name}" expired; set its login cookies again.`,
  ];
  return { subject: m.title, text: lines.join("\n") };
}
