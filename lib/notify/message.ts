/**
 * The Chinese text of chat notifications (钉钉 DingTalk, 企业微信 WeCom, 飞书 Feishu), and the
 * escaping of crawled text for them.
 *
 * Everything a post brings — title, author, excerpt, URL — is written by whoever posted it and is
 * hostile: a title like `[点我](http://evil.example) **粗** <at user_id="all">` must not become a
 * link, bold text or a mention in a chat group. The chat clients' markdown renderers differ and
 * are not documented precisely enough to rely on backslash escapes (DingTalk's and WeCom's subsets
 * say nothing about them), so the characters that carry markup are replaced by their full-width
 * forms (`[` → `［`, `*` → `＊`, `<` → `＜` …): no renderer treats those as syntax, and in a
 * Chinese message they read naturally. URLs in crawled text are defanged (`://` → `:／／`) so that
 * clients which link bare URLs do not; the only links are the ones built here, to the dashboard or
 * to the post, with the characters that could end a markdown link percent-encoded.
 */
import zhMessages from "../../messages/zh-CN.json";
import { PLATFORMS } from "../platforms";
import { shanghaiTime } from "../time";
import type { FlagSummary, NotificationPayload } from "./types";

/** Flags listed in one chat message; the rest are counted ("还有 N 条"). */
export const MAX_LISTED = 10;

/** Platform names as Chinese readers know them: each registry platform's short name in the Chinese messages. */
export const PLATFORM_ZH: Readonly<Record<string, string>> = Object.fromEntries(PLATFORMS.map((id) => [id, zhMessages.platforms[id].short]));

// Control characters, zero-width and bidirectional-override characters: invisible, and able to
// reorder or hide what a reader sees.
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/**
 * Crawled text as one plain line: whitespace runs (newlines included) become one space, invisible
 * characters go, at most `max` characters (an ellipsis marks a cut), URLs defanged, and `<`, `>`,
 * `@` full-width so that no `<at …>` or `<@user>` mention can form. For plain-text elements
 * (Feishu `post` text tags).
 */
export function plainText(text: string, max: number): string {
  let s = text.replace(/\s+/g, " ").replace(INVISIBLE, "").trim();
  const chars = Array.from(s);
  if (chars.length > max) s = `${chars.slice(0, Math.max(0, max - 1)).join("")}…`;
  return s
    .replace(/:\/\//g, ":／／")
    .replace(/www\./gi, (w) => `${w.slice(0, 3)}．`)
    .replace(/[<>@]/g, (c) => FULL_WIDTH[c]!);
}

const FULL_WIDTH: Readonly<Record<string, string>> = {
  "\\": "＼",
  "[": "［",
  "]": "］",
  "(": "（",
  ")": "）",
  "*": "＊",
  _: "＿",
  "#": "＃",
  ">": "＞",
  "<": "＜",
  "`": "｀",
  "~": "～",
  "|": "｜",
  "!": "！",
  "&": "＆",
  "@": "＠",
  $: "＄",
};

/** Text as one line of a plain-text e-mail: whitespace runs collapsed, at most `max` characters (an ellipsis marks a cut). */
export function oneLine(text: string, max: number): string {
  const chars = Array.from(text.replace(/\s+/g, " ").trim());
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : chars.join("");
}

/**
 * Crawled text for DingTalk / WeCom markdown: {@link plainText}, and every character that carries
 * markdown or HTML syntax (`\ [ ] ( ) * _ # > < \` ~ | ! & $`) in its full-width form.
 */
export function markdownText(text: string, max: number): string {
  return plainText(text, max).replace(/[\\[\]()*_#>`~|!&$]/g, (c) => FULL_WIDTH[c]!);
}

/**
 * A URL safe to put in a markdown link or a Feishu `a` tag: http(s) only, at most 1000
 * characters, and the characters that could close or break a markdown link percent-encoded
 * (equivalent for the server, RFC 3986). Null when the URL is unusable.
 */
export function linkUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  const href = u.href.replace(/[()[\]<>*_~`'"|\\{}^ \s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  return href.length <= 1000 ? href : null;
}

/** `12月1日 06:32` (Asia/Shanghai): formatted by lib/time.ts, re-exported for the channels. */
export { shanghaiTime };

/**
 * Why a post was flagged, in Chinese, from the flag's reasons (crawler/classify/topic-service.ts
 * `FlagReason`: `{kind: "keyword"|"sensitive"|"classifier"|"cosine", detail}`):
 * `关键词 期末、考试；敏感词 作弊；分类器 0.93；相关度 0.41`. Not yet escaped.
 */
export function reasonsZh(reasons: unknown, score: number): string {
  if (!Array.isArray(reasons)) return typeof reasons === "string" ? reasons : "";
  const parts: string[] = [];
  const words = (detail: string) =>
    [
      ...new Set(
        detail
          .split(/[,，、]\s*/)
          .map((w) => w.replace(/\s*@\d+[–-]\d+$/, "").trim())
          .filter(Boolean),
      ),
    ].join("、");
  const num = (detail: string, fallback: number) => {
    const m = /P\(on-topic\)\s*=?\s*(\d+(?:\.\d+)?)/.exec(detail) ?? /(\d+(?:\.\d+)?)/.exec(detail);
    const x = m ? Number(m[1]) : fallback;
    return x.toFixed(2);
  };
  for (const r of reasons as { kind?: unknown; detail?: unknown; word?: unknown }[]) {
    const detail = typeof r?.detail === "string" ? r.detail : typeof r?.word === "string" ? r.word : "";
    switch (r?.kind) {
      case "keyword":
        parts.push(`关键词 ${words(detail)}`);
        break;
      case "sensitive":
        parts.push(`敏感词 ${words(detail)}`);
        break;
      case "classifier":
        parts.push(`分类器 ${num(detail, score)}`);
        break;
      case "cosine":
        parts.push(`相关度 ${num(detail, 0)}`);
        break;
      default:
        if (detail) parts.push(detail);
    }
  }
  return parts.join("；");
}

/** The message title: `【CampusWatch】考试：3 条新预警`. Not escaped (the caller escapes the topic name). */
export function messageTitle(topicName: string, total: number): string {
  return `【CampusWatch】${topicName}：${total} 条新预警`;
}

/** One listed flag, every text already escaped for the target (markdown or plain). */
export interface MessageItem {
  title: string;
  /** Where the title links to: the dashboard's post page, else the post itself; null: no link. */
  link: string | null;
  /** `贴吧 · x吧 · 作者 张三 · 12月1日 06:32` */
  meta: string;
  /** `原因：敏感词 作弊` */
  why: string;
}

/** The parts of a chat message, escaped with `esc` (markdownText or plainText). */
export interface MessageParts {
  title: string;
  /** `x吧（贴吧）本次抓取新增 3 条预警。` */
  intro: string;
  items: MessageItem[];
  /** Flags not listed (`还有 N 条`), 0 when all are listed. */
  more: number;
  /** The topic's flagged list on the dashboard, when the public URL is set. */
  listUrl: string | null;
}

/** Build the message parts of a payload, listing at most `max` flags. */
export function messageParts(p: NotificationPayload, esc: (text: string, max: number) => string, max = MAX_LISTED): MessageParts {
  const total = Math.max(p.total ?? p.flags.length, p.flags.length);
  const platform = PLATFORM_ZH[p.crawlRun.platform] ?? p.crawlRun.platform;
  const account = esc(p.crawlRun.account, 40);
  const items = p.flags.slice(0, Math.max(0, max)).map((f) => item(f, platform, account, esc));
  return {
    title: messageTitle(esc(p.topic.name, 60), total),
    intro: `${account}（${esc(platform, 10)}）本次抓取新增 ${total} 条预警。`,
    items,
    more: total - items.length,
    listUrl: linkUrl(p.topicUrl),
  };
}

function item(f: FlagSummary, platform: string, account: string, esc: (text: string, max: number) => string): MessageItem {
  const title = f.title.trim() ? esc(f.title, 60) : f.excerpt.trim() ? esc(f.excerpt, 40) : "（无标题）";
  const meta = [esc(platform, 10), account, f.author.trim() ? `作者 ${esc(f.author, 30)}` : "", shanghaiTime(f.publishedAt)].filter(Boolean).join(" · ");
  const why = esc(reasonsZh(f.reasons, f.score), 120);
  return { title, link: linkUrl(f.dashboardUrl ?? f.url), meta, why: `原因：${why || "—"}` };
}

/**
 * The markdown text shared by DingTalk and WeCom. `lineBreak`: DingTalk needs an empty line between
 * lines ("\n\n"), WeCom takes "\n". `maxBytes`: WeCom refuses content over 4096 bytes of UTF-8, so
 * flags are dropped from the end (and counted in 还有 N 条) until it fits.
 */
export function markdownMessage(p: NotificationPayload, opts: { lineBreak: string; maxBytes?: number; heading?: string }): { title: string; text: string } {
  for (let n = Math.min(MAX_LISTED, p.flags.length); ; n--) {
    const m = messageParts(p, markdownText, n);
    const lines = [`${opts.heading ?? "###"} ${m.title}`, m.intro];
    m.items.forEach((it, i) => {
      lines.push(`${i + 1}. ${it.link ? `[${it.title}](${it.link})` : it.title}`, `> ${it.meta}`, `> ${it.why}`);
    });
    if (m.more > 0) lines.push(`还有 ${m.more} 条未列出。`);
    if (m.listUrl) lines.push(`[在 CampusWatch 查看全部预警](${m.listUrl})`);
    const text = lines.join(opts.lineBreak);
    if (!opts.maxBytes || Buffer.byteLength(text, "utf8") <= opts.maxBytes || n === 0) return { title: m.title, text };
  }
}

/** Feishu `post` (rich text) content: plain text tags and `a` tags, so crawled text is never markup. */
export type FeishuElement = { tag: "text"; text: string } | { tag: "a"; text: string; href: string };

/** The Feishu `post` message body (without timestamp and sign): title and lines of elements. */
export function feishuPost(p: NotificationPayload): { msg_type: "post"; content: { post: { zh_cn: { title: string; content: FeishuElement[][] } } } } {
  const m = messageParts(p, plainText);
  const text = (t: string): FeishuElement => ({ tag: "text", text: t });
  const content: FeishuElement[][] = [[text(m.intro)]];
  m.items.forEach((it, i) => {
    content.push([text(`${i + 1}. `), it.link ? { tag: "a", text: it.title, href: it.link } : text(it.title)]);
    content.push([text(`    ${it.meta}`)], [text(`    ${it.why}`)]);
  });
  if (m.more > 0) content.push([text(`还有 ${m.more} 条未列出。`)]);
  if (m.listUrl) content.push([{ tag: "a", text: "在 CampusWatch 查看全部预警", href: m.listUrl }]);
  return { msg_type: "post", content: { post: { zh_cn: { title: m.title, content } } } };
}
