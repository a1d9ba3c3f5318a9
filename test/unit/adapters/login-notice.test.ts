/**
 * The "需要重新登录" notice as each channel says it (lib/notify/login.ts): Chinese, naming the
 * account, the platform and the URL that showed the logged-out page, with the account name
 * escaped like crawled text, and routed by the channels instead of the flag message.
 */
import { describe, expect, it } from "vitest";
import { isLoginExpired, loginEmail, loginFeishuPost, loginMarkdown } from "../../../lib/notify/login";
import { sendDingtalk } from "../../../lib/notify/channels/dingtalk";
import type { LoginExpiredPayload, SendContext } from "../../../lib/notify/types";
import { createAddressPolicy } from "../../../lib/net/address";

const payload: LoginExpiredPayload = {
  event: "campuswatch.login-expired",
  topic: { id: 3, name: "考试" },
  account: {
    id: 7,
    name: '水区 [点我](http://evil.example) <at user_id="all">',
    platform: "discuz",
    entryUrl: "https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2",
  },
  crawlRun: { id: 41, startedAt: "2026-11-30T02:00:00.000Z", finishedAt: "2026-11-30T02:00:05.000Z" },
  url: "https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2&page=1",
  reason: "Discuz! answers as to a visitor",
  accountUrl: "https://cw.example.edu.cn/accounts/7",
};

describe("login-expired notice", () => {
  it("is told apart from a flags payload by its event", () => {
    expect(isLoginExpired(payload)).toBe(true);
    expect(JSON.stringify(payload).startsWith('{"event":"campuswatch.login-expired"')).toBe(true);
  });

  it("markdown: title, platform, time in Shanghai, the URL, the account link; the name cannot become a link or a mention", () => {
    const { title, text } = loginMarkdown(payload, { lineBreak: "\n\n" });
    expect(title).toMatch(/^【CampusWatch】需要重新登录：水区 /);
    expect(text).toContain("（论坛）的登录已失效");
    expect(text).toContain("11月30日 10:00");
    expect(text).toContain("抓取记录 #41");
    expect(text).toContain("[在 CampusWatch 打开该账号](https://cw.example.edu.cn/accounts/7)");
    expect(text).toContain("此提醒每次失效只发送一次");
    expect(text).not.toContain("[点我](");
    expect(text).not.toContain("<at");
  });

  it("Feishu: only text and link elements", () => {
    const post = loginFeishuPost(payload).content.post.zh_cn;
    expect(post.title).toMatch(/需要重新登录/);
    expect(post.content.flat().every((e) => e.tag === "text" || e.tag === "a")).toBe(true);
    expect(post.content.flat().find((e) => e.tag === "a")).toMatchObject({ href: "https://cw.example.edu.cn/accounts/7" });
  });

  it("e-mail: Chinese with the reason and one English line", () => {
    const mail = loginEmail(payload);
    expect(mail.subject).toMatch(/^【CampusWatch】需要重新登录：/);
    expect(mail.text).toContain("出现未登录页面的地址：https://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2&page=1");
    expect(mail.text).toContain("网站的回答：Discuz! answers as to a visitor");
    expect(mail.text).toMatch(/CampusWatch: the login of the account .* expired; set its login cookies again\.$/);
  });

  it("a chat channel sends the notice, not a flag list", async () => {
    const sent: string[] = [];
    const ctx: SendContext = {
      target: "https://oapi.dingtalk.com/robot/send?access_token=abc",
      secret: null,
      raw: JSON.stringify(payload),
      payload,
      timeoutMs: 1000,
      fetch: async (_url: string | URL | Request, init?: RequestInit) => {
        sent.push(typeof init?.body === "string" ? init.body : "");
        return new Response('{"errcode":0,"errmsg":"ok"}', { status: 200 });
      },
      now: () => Date.parse("2026-11-30T02:00:06Z"),
      smtp: null,
      // The robot's host checked as public (a fixed answer: no DNS in tests); the stub fetch connects nowhere.
      policy: createAddressPolicy({ trustedHosts: [], resolve: async () => [{ address: "93.184.216.34", family: 4 }] }),
    };
    expect(await sendDingtalk(ctx)).toEqual({ ok: true });
    const body = JSON.parse(sent[0]!) as { msgtype: string; markdown: { title: string; text: string } };
    expect(body.msgtype).toBe("markdown");
    expect(body.markdown.title).toMatch(/需要重新登录/);
  });
});
