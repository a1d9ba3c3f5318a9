import { describe, expect, it } from "vitest";
import { detectBlock, htmlTitle } from "../../../crawler/fetch/captcha";

const page = (title: string, body = "") => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const probe = (body: string, extra: { url?: string; status?: number; location?: string; json?: boolean } = {}) => ({
  url: extra.url ?? "https://tieba.baidu.com/f?kw=x",
  status: extra.status ?? 200,
  body,
  location: extra.location,
  json: extra.json,
});

describe("detectBlock", () => {
  it.each([
    ["Baidu's security check", page("百度安全验证", '<div class="timeout-title">网络不给力，请稍后重试</div>')],
    ["a bare captcha title", page("验证码")],
    ["an English captcha title", page("Captcha")],
    ["a generic verification title", page("安全验证 - 访问受限")],
    ["a Cloudflare challenge", page("Just a moment...")],
    ["Baidu's check with a generic title", page("百度一下", '<script src="https://wappass.baidu.com/static/captcha/tuxing.js"></script>请完成下方安全验证')],
  ])("flags %s", (_name, body) => {
    expect(detectBlock(probe(body))).toMatchObject({ cookieWall: false });
  });

  it.each([
    ["a forum thread about captchas", page("验证码收不到怎么办？ - 研究生版 - 水木校园论坛 - Powered by Discuz!")],
    ["a normal Tieba list", page("南大吧-百度贴吧", '<a href="/p/1">食堂</a>')],
    ["a page without title", "<p>hello</p>"],
    [
      "a Discuz page whose reply form has a seccode field",
      page("食堂涨价了 - 校园论坛", '<input name="seccodeverify"> 验证码 <img src="misc.php?mod=seccode">'),
    ],
  ])("does not flag %s", (_name, body) => {
    expect(detectBlock(probe(body))).toBeUndefined();
  });

  it("flags redirects to Baidu's wappass and Weibo's passport", () => {
    expect(detectBlock(probe("", { status: 302, location: "https://wappass.baidu.com/static/captcha/tuxing.html?ak=1" }))).toMatchObject({
      cookieWall: false,
    });
    expect(detectBlock(probe("", { status: 302, location: "https://passport.weibo.com/visitor/visitor?entry=miniblog" }))).toMatchObject({
      cookieWall: true,
    });
    expect(detectBlock(probe("", { url: "https://passport.weibo.com/visitor/visitor" }))).toMatchObject({ cookieWall: true });
  });

  it("flags Weibo's ok:-100 only when JSON was expected", () => {
    const body = JSON.stringify({ ok: -100, url: "https://passport.weibo.com/sso/signin?r=x" });
    expect(detectBlock(probe(body, { json: true }))).toMatchObject({ cookieWall: true, reason: expect.stringContaining("-100") });
    expect(detectBlock(probe(body))).toBeUndefined();
    expect(detectBlock(probe(JSON.stringify({ ok: 1, data: { cards: [] } }), { json: true }))).toBeUndefined();
    expect(detectBlock(probe("not json", { json: true }))).toBeUndefined();
  });

  it("flags Weibo's visitor system page", () => {
    expect(detectBlock(probe(page("Sina Visitor System")))).toMatchObject({ cookieWall: true });
  });
});

describe("htmlTitle", () => {
  it("collapses whitespace and reads the first title", () => {
    expect(htmlTitle("<title>\n  百度&nbsp;安全验证 \n</title><title>x</title>")).toBe("百度 安全验证");
    expect(htmlTitle("<p>none</p>")).toBeUndefined();
  });
});
