/**
 * The texts of case assignments (server/cases.ts queues them): every channel says who assigned
 * what (an incident, a flagged post) to whom, the due time, the note, and links to the item's page
 * and to 我的待办. Users have no channel of their own, so the message goes to the channels of the
 * case's topic and names the assignee. The words come from the `caseAlert` group of
 * messages/zh-CN.json and messages/en.json, in the topic's notification language; crawled text
 * (titles are posts' words) is escaped as in ./message.ts.
 */
import zhMessages from "../../messages/zh-CN.json";
import enMessages from "../../messages/en.json";
import { fill, timeOf } from "./incident";
import { linkUrl, markdownText, oneLine, plainText, type FeishuElement } from "./message";
import type { AnyNotificationPayload, CaseAssignedPayload } from "./types";

/** How a stored case payload starts (`event` is its first key). */
export const CASE_PAYLOAD_PREFIX = '{"event":"campuswatch.case"';

type Words = (typeof zhMessages)["caseAlert"];
const WORDS: Readonly<Record<CaseAssignedPayload["locale"], Words>> = { "zh-CN": zhMessages.caseAlert, en: enMessages.caseAlert };

/** True for a case assignment. */
export function isCaseAssigned(p: AnyNotificationPayload): p is CaseAssignedPayload {
  return p.event === "campuswatch.case";
}

/** The lines every channel says, with crawled and typed text escaped by `esc`. */
export function caseLines(
  p: CaseAssignedPayload,
  esc: (text: string, max: number) => string,
): { title: string; intro: string; due: string; note: string | null; w: Words } {
  const w = WORDS[p.locale] ?? WORDS["zh-CN"];
  const assignee = esc(p.assignee.username, 40);
  const name = p.subject.title.trim() ? esc(p.subject.title, 60) : w.untitled;
  const subject = fill(p.subject.kind === "incident" ? w.subjectIncident : w.subjectFlag, { id: p.subject.id, title: name });
  return {
    title: fill(w.title, { topic: esc(p.topic.name, 60), assignee }),
    intro: fill(w.intro, { by: esc(p.assignedBy, 40), assignee, subject }),
    due: p.case.dueAt ? fill(w.due, { due: timeOf(p.case.dueAt, p.locale) }) : w.noDue,
    note: p.case.note.trim() ? fill(w.note, { note: esc(p.case.note, 300) }) : null,
    w,
  };
}

/** The markdown of DingTalk (`lineBreak` "\n\n") and WeCom ("\n"). */
export function caseMarkdown(p: CaseAssignedPayload, opts: { lineBreak: string; heading?: string }): { title: string; text: string } {
  const m = caseLines(p, markdownText);
  const lines = [`${opts.heading ?? "###"} ${m.title}`, m.intro, `> ${m.due}`];
  if (m.note) lines.push(`> ${m.note}`);
  const link = linkUrl(p.caseUrl);
  const todo = linkUrl(p.todoUrl);
  if (link) lines.push(`[${m.w.link}](${link})`);
  if (todo) lines.push(`[${m.w.todoLink}](${todo})`);
  return { title: m.title, text: lines.join(opts.lineBreak) };
}

/** The Feishu `post` message body: plain text tags, and `a` tags to the item and to 我的待办. */
export function caseFeishuPost(p: CaseAssignedPayload): { msg_type: "post"; content: { post: { zh_cn: { title: string; content: FeishuElement[][] } } } } {
  const m = caseLines(p, plainText);
  const text = (t: string): FeishuElement => ({ tag: "text", text: t });
  const content: FeishuElement[][] = [[text(m.intro)], [text(m.due)], ...(m.note ? [[text(m.note)]] : [])];
  const link = linkUrl(p.caseUrl);
  const todo = linkUrl(p.todoUrl);
  if (link) content.push([{ tag: "a", text: m.w.link, href: link }]);
  if (todo) content.push([{ tag: "a", text: m.w.todoLink, href: todo }]);
  return { msg_type: "post", content: { post: { zh_cn: { title: m.title, content } } } };
}

/** The plain-text e-mail. */
export function caseEmail(p: CaseAssignedPayload): { subject: string; text: string } {
  const m = caseLines(p, oneLine);
  const lines = [
    m.intro,
    "",
    m.due,
    ...(m.note ? [m.note] : []),
    ...(p.caseUrl ? ["", fill(m.w.linkPlain, { url: p.caseUrl })] : []),
    "",
    fill(m.w.emailFooter, { topic: oneLine(p.topic.name, 60) }),
  ];
  return { subject: m.title, text: lines.join("\n") };
}
