/**
 * robots.txt answers are cached per origin for every account of a process; a proxy failure is
 * not the site's answer and must never be remembered as "no rules".
 */
import { describe, expect, it } from "vitest";
import { RobotsCache } from "../../../crawler/fetch/robots";
import { ProxyError } from "../../../crawler/fetch/proxy-tunnel";

describe("RobotsCache", () => {
  it("a robots.txt that could not be fetched through the proxy is thrown, not cached as allow-all", async () => {
    const cache = new RobotsCache();
    const logs: string[] = [];
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new ProxyError("http://ops:***@127.0.0.1:9", "connect", "connection refused", "https://bbs.example.edu.cn/robots.txt");
    };
    await expect(cache.get("https://bbs.example.edu.cn", failing, (m) => logs.push(m))).rejects.toBeInstanceOf(ProxyError);
    // Asked again next time: once the proxy works, the real rules apply.
    const rules = await cache.get(
      "https://bbs.example.edu.cn",
      async () => ({ status: 200, body: "User-agent: *\nDisallow: /private\n" }),
      (m) => logs.push(m),
    );
    expect(calls).toBe(1);
    expect(rules.isAllowed("https://bbs.example.edu.cn/private/x", "CampusWatch")).toBe(false);
    expect(logs).toEqual([]);
  });

  it("a network error of the site itself allows for a while, with a log line", async () => {
    const cache = new RobotsCache();
    const logs: string[] = [];
    const rules = await cache.get(
      "https://down.example.edu.cn",
      async () => Promise.reject(new Error("ECONNRESET")),
      (m) => logs.push(m),
    );
    expect(rules.isAllowed("https://down.example.edu.cn/anything", "CampusWatch")).toBe(true);
    expect(logs[0]).toMatch(/could not be fetched \(ECONNRESET\); crawling as if allowed/);
  });
});
