/**
 * The texts of deletion notices (删帖提醒, lib/notify/deletion.ts): both languages from the message
 * files, the post's address and dashboard link in every channel, and crawled text that cannot
 * become markup, a link or a mention.
 */
import { describe, expect, it } from "vitest";
import type { DeletionPayload } from "../../lib/notify";
import { deletionEmail, deletionFeishuPost, deletionMarkdown } from "../../lib/notify/deletion";
import zh from "../../messages/zh-CN.json";
import en from "../../messages/en.json";

const HOSTILE = '[点我](http://evil.example) **粗** <at user_id="all">';

function payload(over: Partial<DeletionPayload> = {}): DeletionPayload {
  return {
    event: "campuswatch.deletion",
    key: "12@2026-12-03T03:00:00.000Z",
    locale: "zh-CN",
    topic: { id: 1, name: "校园安全" },
    post: {
      id: 12,
      kind: "post",
      url: "https://m.weibo.cn/detail/5000000000000001",
      title: HOSTILE,
      excerpt: "",
      author: "匿名用户",
      platform: "weibo",
      account: "某大学微博",
      publishedAt: "2026-12-03T01:00:00.000Z",
      deletedAt: "2026-12-03T03:00:00.000Z",
    },
    flag: { id: 3, status: "open", score: 0.91, reasons: [] },
    incident: { id: 7, title: "宿舍停电" },
    postUrl: "https://cw.example.edu.cn/posts/12",
    incidentUrl: "https://cw.example.edu.cn/incidents/7",
    crawlRunId: 40,
    ...over,
  };
}

describe("deletion notice texts", () => {
  it("Chinese markdown: title, why, times, the original address and both links; crawled text escaped", () => {
    const { title, text } = deletionMarkdown(payload(), { lineBreak: "\n" });
    expect(title).toBe("【CampusWatch】校园安全：删帖提醒");
    expect(text).toContain("某大学微博（微博）上的一条帖子已被删除：");
    expect(text).toContain("该帖在主题“校园安全”中有预警（待审核，分数 0.91）");
    expect(text).toContain("该帖属于进行中的事件「宿舍停电」");
    expect(text).toContain("发布于 12月3日 09:00 · 发现删除于 12月3日 11:00");
    expect(text).toContain("原帖地址：https:／／m.weibo.cn/detail/5000000000000001");
    expect(text).toContain(`[${zh.deletionAlert.link}](https://cw.example.edu.cn/posts/12)`);
    expect(text).toContain(`[${zh.deletionAlert.incidentLink}](https://cw.example.edu.cn/incidents/7)`);
    // The only links are the two built here; the title makes none, and no mention.
    expect(text.match(/\]\(/g)).toHaveLength(2);
    expect(text).not.toContain("<at");
    expect(text).not.toContain("http://evil");
  });

  it("English e-mail and Feishu post, from messages/en.json", () => {
    const p = payload({ locale: "en", flag: { id: 3, status: "confirmed", score: 0.5, reasons: [] }, incident: null, incidentUrl: null });
    const mail = deletionEmail(p);
    expect(mail.subject).toBe("[CampusWatch] 校园安全: a post was deleted");
    expect(mail.text).toContain("It is flagged in the topic “校园安全” (confirmed, score 0.50)");
    expect(mail.text).toContain("published 2026-12-03 09:00 · deletion noticed 2026-12-03 11:00");
    expect(mail.text).toContain("The post in CampusWatch: https://cw.example.edu.cn/posts/12");
    expect(mail.text).toContain(en.deletionAlert.once);
    const feishu = deletionFeishuPost(p);
    const links = feishu.content.post.zh_cn.content.flat().filter((e) => e.tag === "a");
    expect(links).toEqual([{ tag: "a", text: en.deletionAlert.link, href: "https://cw.example.edu.cn/posts/12" }]);
  });
});
