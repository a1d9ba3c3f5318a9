/** Tieba bar URLs: every form people paste maps to the desktop list the adapter crawls. */
import { describe, expect, test } from "vitest";
import { recognisePlatform, tiebaBarFromUrl, tiebaDesktopListUrl, tiebaEntryUrl } from "../../../crawler/adapters";
import { tiebaAdapter } from "../../../crawler/adapters/tieba";
import { normaliseEntryUrl, platformProblem } from "../../../server/accounts";
import { collect, stubContext, stubFetcher } from "./helpers";

const DESKTOP = "https://tieba.baidu.com/f?kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6&ie=utf-8";

describe("tieba bar URLs", () => {
  test.each([
    ["https://tieba.baidu.com/f?kw=北江大学"],
    ["https://tieba.baidu.com/f?ie=utf-8&kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6&fr=search"],
    ["https://tieba.baidu.com/mo/q/m?kw=北江大学&lp=5024&forum_recommend=1&lm=0&cid=0&has_url_param=0&pn=0&is_ajax=1"],
    ["https://tieba.baidu.com/mo/q/m?word=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6&tn4=bdKSW&sub4=%E8%BF%9B%E5%90%A7"],
    ["http://tieba.baidu.com/mo/m?kw=北江大学"],
    ["http://wapp.baidu.com/f?kw=北江大学"],
    ["http://wapp.baidu.com/f/q---wiaui_1339034079_1644--1-1-0/m?kw=北江大学"],
    ["http://c.tieba.baidu.com/mo/q/m?kw=北江大学&pn=0&lp=5024"],
    ["https://c.tieba.baidu.com/f/frs?kw=北江大学&ie=utf-8&rn=30&pn=1"],
    ["https://jump2.bdimg.com/f?kw=北江大学"],
    ["https://dq.tieba.com/f?kw=北江大学"],
    // Old links encode the bar in GBK (Tieba's default before UTF-8): 北江大学 = B1 B1 BD AD B4 F3 D1 A7.
    ["https://tieba.baidu.com/f?kw=%B1%B1%BD%AD%B4%F3%D1%A7&fr=ala0"],
  ])("%s names 北江大学 and maps to the desktop list", (url) => {
    const u = new URL(url);
    expect(recognisePlatform(u)).toBe("tieba");
    expect(tiebaBarFromUrl(u)).toBe("北江大学");
    expect(tiebaDesktopListUrl(u)).toBe(DESKTOP);
    expect(platformProblem(url, undefined)).toBeNull();
    expect(platformProblem(url, "tieba")).toBeNull();
  });

  test("registering a mobile form stores the desktop list; a desktop URL is kept as given", () => {
    expect(normaliseEntryUrl("https://tieba.baidu.com/mo/q/m?kw=北江大学&lp=5024#top")).toBe(DESKTOP);
    expect(normaliseEntryUrl("http://wapp.baidu.com/f?kw=北江大学")).toBe(DESKTOP);
    expect(normaliseEntryUrl("https://tieba.baidu.com/f?kw=%B1%B1%BD%AD%B4%F3%D1%A7")).toBe(DESKTOP);
    expect(normaliseEntryUrl("https://tieba.baidu.com/f?kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6")).toBe(
      "https://tieba.baidu.com/f?kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6",
    );
    expect(tiebaEntryUrl(new URL("https://tieba.baidu.com/f?kw=x"))).toBeNull();
    // A local copy of the platform keeps its own origin.
    expect(normaliseEntryUrl("http://127.0.0.1:4000/mo/q/m?kw=%E5%8C%97%E6%B1%9F")).toBe("http://127.0.0.1:4000/f?kw=%E5%8C%97%E6%B1%9F&ie=utf-8");
  });

  test("URLs that name no bar are not bars", () => {
    expect(tiebaBarFromUrl(new URL("https://tieba.baidu.com/p/9117905169"))).toBeNull();
    expect(tiebaBarFromUrl(new URL("https://tieba.baidu.com/mo/q/m?kw="))).toBeNull();
    expect(tiebaBarFromUrl(new URL("https://example.edu.cn/news/?kw=x"))).toBeNull();
    expect(recognisePlatform("https://example.edu.cn/mo/q/m?kw=x")).toBe("tieba");
    expect(platformProblem("https://tieba.baidu.com/p/9117905169", "tieba")).toMatch(/^unknown URL shape for a Tieba bar/);
  });

  test("an account whose entry URL is a mobile form still crawls the desktop list of its bar", async () => {
    const list = '<code id="pagelet_html_frs-list/pagelet/thread_list"><!--<ul id="thread_list"></ul>--></code>';
    const fetch = stubFetcher({ [`http://127.0.0.1:4000/f?kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6&ie=utf-8&pn=0`]: list });
    const ctx = stubContext("tieba", "http://127.0.0.1:4000/mo/q/m?word=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6", fetch, new Date("2025-06-15T04:00:00Z"));
    expect(await collect(tiebaAdapter.list(ctx))).toEqual([]);
    expect(fetch.requests.map((r) => r.url)).toEqual(["http://127.0.0.1:4000/f?kw=%E5%8C%97%E6%B1%9F%E5%A4%A7%E5%AD%A6&ie=utf-8&pn=0"]);
  });
});
