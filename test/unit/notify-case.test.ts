/**
 * The texts of case assignment notices (lib/notify/case.ts): both languages from the message
 * files, who assigned what to whom with the due time and the note, links to the item and to
 * 我的待办 in every channel, and typed or crawled text that cannot become markup, a link or a mention.
 */
import { describe, expect, it } from "vitest";
import type { CaseAssignedPayload } from "../../lib/notify";
import { caseEmail, caseFeishuPost, caseMarkdown } from "../../lib/notify/case";
import zh from "../../messages/zh-CN.json";
import en from "../../messages/en.json";

const HOSTILE = '[点我](http://evil.example) **粗** <at user_id="all">';

function payload(over: Partial<CaseAssignedPayload> = {}): CaseAssignedPayload {
  return {
    event: "campuswatch.case",
    kind: "assigned",
    locale: "zh-CN",
    topic: { id: 1, name: "校园安全" },
    case: { id: 5, status: "new", dueAt: "2026-12-04T10:00:00.000Z", note: HOSTILE },
    subject: { kind: "incident", id: 7, title: "宿舍停电", postId: null },
    assignee: { id: 2, username: "李老师" },
    assignedBy: "admin",
    caseUrl: "https://cw.example.edu.cn/incidents/7",
    todoUrl: "https://cw.example.edu.cn/todo",
    at: "2026-12-03T02:00:00.000Z",
    ...over,
  };
}

describe("case assignment notice texts", () => {
  it("Chinese markdown: who, what, to whom, due time, note and both links; the note escaped", () => {
    const { title, text } = caseMarkdown(payload(), { lineBreak: "\n" });
    expect(title).toBe("【CampusWatch】校园安全：新待办指派给 李老师");
    expect(text).toContain("admin 把事件 #7「宿舍停电」指派给 李老师 处理。");
    expect(text).toContain("截止时间：12月4日 18:00");
    expect(text).toContain(`[${zh.caseAlert.link}](https://cw.example.edu.cn/incidents/7)`);
    expect(text).toContain(`[${zh.caseAlert.todoLink}](https://cw.example.edu.cn/todo)`);
    // The only links are the two built here; the note makes none, and no mention.
    expect(text.match(/\]\(/g)).toHaveLength(2);
    expect(text).not.toContain("<at");
    expect(text).not.toContain("http://evil");
  });

  it("English e-mail and Feishu post of a flag without a due time, from messages/en.json", () => {
    const p = payload({
      locale: "en",
      case: { id: 5, status: "new", dueAt: null, note: "" },
      subject: { kind: "flag", id: 3, title: "", postId: 12 },
      caseUrl: "https://cw.example.edu.cn/posts/12",
    });
    const mail = caseEmail(p);
    expect(mail.subject).toBe("[CampusWatch] 校园安全: new case assigned to 李老师");
    expect(mail.text).toContain("admin assigned flag #3 (post “(untitled)”) to 李老师.");
    expect(mail.text).toContain(en.caseAlert.noDue);
    expect(mail.text).not.toContain("Note:");
    expect(mail.text).toContain("The item in CampusWatch: https://cw.example.edu.cn/posts/12");
    const feishu = caseFeishuPost(p);
    const links = feishu.content.post.zh_cn.content.flat().filter((e) => e.tag === "a");
    expect(links).toEqual([
      { tag: "a", text: en.caseAlert.link, href: "https://cw.example.edu.cn/posts/12" },
      { tag: "a", text: en.caseAlert.todoLink, href: "https://cw.example.edu.cn/todo" },
    ]);
  });
});
