/**
 * The texts of deletion notices (删帖提醒): a post with an open or confirmed flag, or in an open
 * incident, was deleted from its platform (crawler/worker/deletions.ts decides and queues them).
 * Every channel carries the post's title, where it was, when it was published and when the crawl
 * noticed it gone, why it matters (the flag, the incident), its original address and a link to its
 * page on the dashboard. The words come from the `deletionAlert` group of messages/zh-CN.json and
 * messages/en.json, in the topic's notification language; crawled text is escaped as in ./message.ts.
 */
import zhMessages from "../../messages/zh-CN.json";
import enMessages from "../../messages/en.json";
import { fill, timeOf } from "./incident";
import { linkUrl, markdownText, oneLine, plainText, type FeishuElement } from "./message";
import type { AnyNotificationPayload, DeletionPayload } from "./types";

/** How a stored deletion payload starts (`event` is its first key). */
export const DELETION_PAYLOAD_PREFIX = '{"event":"campuswatch.deletion"';

/** The key of one deletion of one post (a post restored and deleted again is another deletion). */
export function deletionKey(postId: number, deletedAt: Date): string {
  return `${postId}@${deletedAt.toISOString()}`;
}

/** How the stored payload of one deletion starts (`key` follows `event`): a notice already queued is found by it. */
export function deletionPayloadStart(key: string): string {
  return `${DELETION_PAYLOAD_PREFIX},"key":${JSON.stringify(key)}`;
}

type Words = (typeof zhMessages)["deletionAlert"];
const WORDS: Readonly<Record<DeletionPayload["locale"], Words>> = { "zh-CN": zhMessages.deletionAlert, en: enMessages.deletionAlert };
const PLATFORM_NAMES = { "zh-CN": zhMessages.platforms, en: enMessages.platforms } as const;

/** True for a deletion notice. */
export function isDeletion(p: AnyNotificationPayload): p is DeletionPayload {
  return p.event === "campuswatch.deletion";
}

/** The lines every channel says, with crawled text escaped by `esc`. */
export function deletionLines(
  p: DeletionPayload,
  esc: (text: string, max: number) => string,
): { title: string; intro: string; why: string[]; times: string; kept: string; original: string; once: string; w: Words } {
  const w = WORDS[p.locale] ?? WORDS["zh-CN"];
  const names = PLATFORM_NAMES[p.locale] ?? PLATFORM_NAMES["zh-CN"];
  const platform = (names as Record<string, { short: string } | undefined>)[p.post.platform]?.short ?? p.post.platform;
  const topic = esc(p.topic.name, 60);
  const title = p.post.title.trim() ? esc(p.post.title, 60) : p.post.excerpt.trim() ? esc(p.post.excerpt, 40) : w.untitled;
  const why: string[] = [];
  if (p.flag) {
    const status = p.flag.status === "confirmed" ? w.statusConfirmed : w.statusOpen;
    why.push(fill(w.flagged, { topic, status, score: p.flag.score.toFixed(2) }));
  }
  if (p.incident) why.push(fill(w.incident, { incident: p.incident.title.trim() ? esc(p.incident.title, 60) : w.untitled }));
  return {
    title: fill(w.title, { topic }),
    intro: fill(w.intro, { account: esc(p.post.account, 40), platform: esc(platform, 10), title: `${title}${p.post.kind === "reply" ? w.reply : ""}` }),
    why,
    times: fill(w.times, {
      author: p.post.author.trim() ? esc(p.post.author, 30) : "—",
      published: timeOf(p.post.publishedAt, p.locale),
      deleted: timeOf(p.post.deletedAt, p.locale),
    }),
    kept: w.kept,
    // The original address as text (defanged by `esc`): it answers "deleted" now, but it is what a report cites.
    original: fill(w.original, { url: esc(p.post.url, 300) }),
    once: w.once,
    w,
  };
}

/** The markdown of DingTalk (`lineBreak` "\n\n") and WeCom ("\n"); short enough for WeCom's 4096 bytes. */
export function deletionMarkdown(p: DeletionPayload, opts: { lineBreak: string; heading?: string }): { title: string; text: string } {
  const m = deletionLines(p, markdownText);
  const lines = [`${opts.heading ?? "###"} ${m.title}`, m.intro, ...m.why.map((l) => `> ${l}`), `> ${m.times}`, m.original];
  const post = linkUrl(p.postUrl);
  const incident = linkUrl(p.incidentUrl);
  if (post) lines.push(`[${m.w.link}](${post})`);
  if (incident) lines.push(`[${m.w.incidentLink}](${incident})`);
  lines.push(m.kept, m.once);
  return { title: m.title, text: lines.join(opts.lineBreak) };
}

/** The Feishu `post` message body: plain text tags, and `a` tags to the post and its incident. */
export function deletionFeishuPost(p: DeletionPayload): { msg_type: "post"; content: { post: { zh_cn: { title: string; content: FeishuElement[][] } } } } {
  const m = deletionLines(p, plainText);
  const text = (t: string): FeishuElement => ({ tag: "text", text: t });
  const content: FeishuElement[][] = [[text(m.intro)], ...m.why.map((l) => [text(l)]), [text(m.times)], [text(m.original)]];
  const post = linkUrl(p.postUrl);
  const incident = linkUrl(p.incidentUrl);
  if (post) content.push([{ tag: "a", text: m.w.link, href: post }]);
  if (incident) content.push([{ tag: "a", text: m.w.incidentLink, href: incident }]);
  content.push([text(m.kept)], [text(m.once)]);
  return { msg_type: "post", content: { post: { zh_cn: { title: m.title, content } } } };
}

/** The plain-text e-mail. */
export function deletionEmail(p: DeletionPayload): { subject: string; text: string } {
  const m = deletionLines(p, oneLine);
  const lines = [
    m.intro,
    "",
    ...m.why,
    m.times,
    m.original,
    ...(p.postUrl ? [fill(m.w.linkPlain, { url: p.postUrl })] : []),
    "",
    m.kept,
    m.once,
    "",
    fill(m.w.emailFooter, { topic: oneLine(p.topic.name, 60) }),
  ];
  return { subject: m.title, text: lines.join("\n") };
}
