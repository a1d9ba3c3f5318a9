/**
 * The texts of incident alerts and updates (crawler/incidents/alerts.ts decides when they are due):
 * every channel carries the incident's title, its heat, its platforms, its size and a link to its
 * page (/incidents/<id>). The words come from the `incidentAlert` group of messages/zh-CN.json and
 * messages/en.json, in the topic's notification language, like the dashboard's; crawled text (the
 * title is made of posts' words) is escaped as in ./message.ts.
 */
import zhMessages from "../../messages/zh-CN.json";
import enMessages from "../../messages/en.json";
import { linkUrl, markdownText, oneLine, plainText, shanghaiTime, type FeishuElement } from "./message";
import type { AnyNotificationPayload, IncidentAlertPayload, IncidentAlertReason } from "./types";

/** How a stored incident payload starts (`event` is its first key). */
export const INCIDENT_PAYLOAD_PREFIX = '{"event":"campuswatch.incident"';

type Words = (typeof zhMessages)["incidentAlert"];
const WORDS: Readonly<Record<IncidentAlertPayload["locale"], Words>> = { "zh-CN": zhMessages.incidentAlert, en: enMessages.incidentAlert };
const PLATFORM_NAMES = { "zh-CN": zhMessages.platforms, en: enMessages.platforms } as const;

/** True for an incident alert or update. */
export function isIncidentAlert(p: AnyNotificationPayload): p is IncidentAlertPayload {
  return p.event === "campuswatch.incident";
}

/** A message with its `{name}` placeholders filled. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (all, name: string) => (name in values ? String(values[name]) : all));
}

/** A time for the reader: `12月1日 06:32` in Chinese, `2026-12-01 06:32` (Asia/Shanghai) in English. */
export function timeOf(iso: string, locale: IncidentAlertPayload["locale"]): string {
  if (locale === "zh-CN") return shanghaiTime(iso);
  const d = new Date(new Date(iso).getTime() + 8 * 3_600_000);
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)}`;
}

/** One reason in words. */
function reasonText(r: IncidentAlertReason, w: Words): string {
  switch (r.rule) {
    case "flagged":
      return fill(w.reasonFlagged, { flagged: r.flagged });
    case "posts":
      return fill(w.reasonPosts, { size: r.size, min: r.min });
    case "spread":
      return fill(w.reasonSpread, { platformCount: r.platformCount, size: r.size });
    case "burst":
      return fill(w.reasonBurst, { recent: r.recent, ratio: r.ratio.toFixed(1) });
    case "growth":
      return fill(w.reasonGrowth, { added: r.added, size: r.size });
  }
}

/** The lines every channel says, with crawled text escaped by `esc`. */
export function incidentLines(
  p: IncidentAlertPayload,
  esc: (text: string, max: number) => string,
): { title: string; name: string; intro: string; why: string; figures: string; seen: string; link: string | null; linkLabel: string } {
  const w = WORDS[p.locale] ?? WORDS["zh-CN"];
  const names = PLATFORM_NAMES[p.locale] ?? PLATFORM_NAMES["zh-CN"];
  const platformName = (id: string) => (names as Record<string, { short: string } | undefined>)[id]?.short ?? id;
  const title = p.incident.title.trim() ? esc(p.incident.title, 60) : w.untitled;
  const topic = esc(p.topic.name, 60);
  const head = fill(p.kind === "alert" ? w.alertTitle : w.updateTitle, { topic, title });
  return {
    title: `${p.topic.urgent ? w.urgentMark : ""}${head}`,
    name: title,
    intro: fill(p.kind === "alert" ? w.intro : w.updateIntro, { topic }),
    why: fill(w.why, { reasons: p.reasons.map((r) => reasonText(r, w)).join(w.separator) }),
    figures: fill(w.figures, {
      heat: p.incident.heat.toFixed(1),
      platforms: esc(p.incident.platforms.map(platformName).join("、"), 60),
      size: p.incident.size,
      authors: p.incident.authorCount,
      flagged: p.incident.flaggedCount,
    }),
    seen: fill(w.seen, { first: timeOf(p.incident.firstSeenAt, p.locale), last: timeOf(p.incident.lastSeenAt, p.locale) }),
    link: linkUrl(p.incidentUrl),
    linkLabel: w.link,
  };
}

/** The markdown of DingTalk (`lineBreak` "\n\n") and WeCom ("\n"); short enough for WeCom's 4096 bytes. */
export function incidentMarkdown(p: IncidentAlertPayload, opts: { lineBreak: string; heading?: string }): { title: string; text: string } {
  const m = incidentLines(p, markdownText);
  const lines = [`${opts.heading ?? "###"} ${m.title}`, `${m.intro}${m.name}`, `> ${m.why}`, `> ${m.figures}`, `> ${m.seen}`];
  if (m.link) lines.push(`[${m.linkLabel}](${m.link})`);
  return { title: m.title, text: lines.join(opts.lineBreak) };
}

/** The Feishu `post` message body: plain text tags and one `a` tag to the incident. */
export function incidentFeishuPost(p: IncidentAlertPayload): {
  msg_type: "post";
  content: { post: { zh_cn: { title: string; content: FeishuElement[][] } } };
} {
  const m = incidentLines(p, plainText);
  const text = (t: string): FeishuElement => ({ tag: "text", text: t });
  const content: FeishuElement[][] = [[text(`${m.intro}${m.name}`)], [text(m.why)], [text(m.figures)], [text(m.seen)]];
  if (m.link) content.push([{ tag: "a", text: m.linkLabel, href: m.link }]);
  return { msg_type: "post", content: { post: { zh_cn: { title: m.title, content } } } };
}

/** The plain-text e-mail. */
export function incidentEmail(p: IncidentAlertPayload): { subject: string; text: string } {
  const w = WORDS[p.locale] ?? WORDS["zh-CN"];
  const m = incidentLines(p, oneLine);
  const lines = [
    `${m.intro}${m.name}`,
    "",
    m.why,
    m.figures,
    m.seen,
    ...(p.incidentUrl ? ["", fill(w.linkPlain, { url: p.incidentUrl })] : []),
    "",
    fill(w.emailFooter, { topic: oneLine(p.topic.name, 60) }),
  ];
  return { subject: m.title, text: lines.join("\n") };
}
