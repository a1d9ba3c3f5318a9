/**
 * Validation errors are translated from codes, never by matching English text: lib/ and server/
 * name each refusal with a code of a code book (lib/validation.ts codeBook), the dashboard says the
 * code with the book's message namespace. Every code of every book has a message in both
 * languages, and the codes really reach the zod issues (zod copies what the error map sets).
 */
import fs from "node:fs";
import path from "node:path";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { LOCALES } from "@/i18n/config";
import { messagesFor } from "@/i18n/messages";
import { codedIssueMessage } from "@/i18n/validation";
import { codeBook, cronExpression, entryUrlProblems, issueCode, urlCronProblems, type CodeBook } from "@/lib/validation";
import { parseSeedList } from "@/server/seeds";
import { discoveryProblems, startDiscoverySchema } from "@/server/discovery";
import { topicFormSchema } from "@/server/topic-admin";
import { topicProblems } from "@/server/topic-problems";
import { accountFormSchema, platformProblemCode, platformUrlProblems, searchUrlProblems } from "@/server/accounts";
import { urlMessage } from "@/app/(dashboard)/accounts/_lib/problems";

const root = path.resolve(import.meta.dirname, "../../..");
const BOOKS: Pick<CodeBook<string>, "namespace" | "codes">[] = [
  urlCronProblems,
  entryUrlProblems,
  topicProblems,
  discoveryProblems,
  platformUrlProblems,
  searchUrlProblems,
];

/** The message tree at `namespace` ("a.b") in `locale`'s catalogue. */
function namespaceOf(locale: (typeof LOCALES)[number], namespace: string): Record<string, unknown> | undefined {
  let node: unknown = messagesFor(locale);
  for (const part of namespace.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return node as Record<string, unknown> | undefined;
}

/** The codes of every issue `schema` raises for `input`, by field. */
function codesOf(schema: z.ZodType, input: unknown): Record<string, (string | undefined)[]> {
  const r = schema.safeParse(input);
  if (r.success) throw new Error("expected a refusal");
  const out: Record<string, (string | undefined)[]> = {};
  for (const issue of r.error.issues) (out[issue.path.join(".") || "_"] ??= []).push(issueCode(issue)?.code);
  return out;
}

describe("code books", () => {
  it("every code has a message in both languages", () => {
    for (const book of BOOKS)
      for (const locale of LOCALES) {
        const messages = namespaceOf(locale, book.namespace);
        expect(messages, `${locale} ${book.namespace}`).toBeDefined();
        for (const code of book.codes) expect(typeof messages![code], `${locale} ${book.namespace}.${code}`).toBe("string");
      }
  });

  it("every book in the sources is checked here", () => {
    const made = (dir: string): number =>
      fs
        .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
        .filter((f) => /\.tsx?$/.test(f))
        .reduce((n, f) => n + (fs.readFileSync(path.join(root, dir, f), "utf8").match(/= codeBook\(/g)?.length ?? 0), 0);
    expect(["lib", "server", "crawler", "app", "components"].reduce((n, d) => n + made(d), 0)).toBe(BOOKS.length);
  });

  it("a code set on any kind of check reaches its issue, with its values, and the English message stays", () => {
    const book = codeBook("test", ["a", "b", "c", "d", "e", "f", "g"]);
    const schema = z.object({
      n: z.coerce
        .number(book.error("a", "a number"))
        .int(book.error("b", "whole"))
        .min(1, book.error("c", "at least 1", { min: 1 })),
      s: z.string().max(3, book.error("d", "short")).regex(/^x/, book.error("e", "starts with x")),
      mail: z.email(book.error("f", "an address")),
      pick: z.enum(["x", "y"], book.error("g", "x or y")),
    });
    const r = schema.safeParse({ n: "0", s: "abcd", mail: "no", pick: "z" });
    expect(r.success).toBe(false);
    const seen = r.error!.issues.map((i) => [i.path.join("."), issueCode(i), i.message]);
    expect(seen).toEqual([
      ["n", { code: "c", values: { min: 1 } }, "at least 1"],
      ["s", { code: "d", values: undefined }, "short"],
      ["s", { code: "e", values: undefined }, "starts with x"],
      ["mail", { code: "f", values: undefined }, "an address"],
      ["pick", { code: "g", values: undefined }, "x or y"],
    ]);
    expect(codesOf(schema.shape.n, "x")).toEqual({ _: ["a"] });
    expect(codesOf(schema.shape.n, "1.5")).toEqual({ _: ["b"] });
  });
});

describe("the forms' refusals carry their codes", () => {
  it("topic form: name, words, thresholds, channels, secrets", () => {
    expect(
      codesOf(topicFormSchema, {
        name: " ",
        keywords: "考试\n(食堂|饭堂",
        nbThreshold: "abc",
        cosineThreshold: "2",
        webhookUrl: "not a url",
        dingtalkWebhook: "https://oapi.dingtalk.com/robot/send?access_token=t&sign=s",
        wecomWebhook: "https://qyapi.weixin.qq.com/other?key=k",
        feishuWebhook: "https://open.feishu.cn/x",
        webhookSecret: "short",
        dingtalkSecret: "nope",
        feishuSecret: "a b",
        notifyEmail: "no",
      }),
    ).toEqual({
      name: ["nameRequired"],
      keywords: ["keywordRule"],
      nbThreshold: ["nbNumber"],
      cosineThreshold: ["cosineRange"],
      webhookUrl: ["fullUrl"],
      dingtalkWebhook: ["noSignParams"],
      wecomWebhook: ["wecomUrl"],
      feishuWebhook: ["feishuUrl"],
      webhookSecret: ["webhookSecretFormat"],
      dingtalkSecret: ["dingtalkSecretFormat"],
      feishuSecret: ["feishuSecretFormat"],
      notifyEmail: ["email"],
    });
    expect(codesOf(topicFormSchema, { name: "t", dingtalkSecret: "SECabc" })).toEqual({ dingtalkSecret: ["secretNeedsUrl"] });
  });

  it("topic form: said in both languages from the code, with its values", () => {
    const r = topicFormSchema.safeParse({ name: "x".repeat(61), feishuSecret: "abcdefgh" });
    expect(r.success).toBe(false);
    const said = (locale: (typeof LOCALES)[number]) => {
      const t = createTranslator({ locale, messages: messagesFor(locale), namespace: "topics.validation" });
      return r.error!.issues.map((i) => codedIssueMessage(i, topicProblems, t));
    };
    expect(said("en")).toEqual(["at most 60 characters", "a secret needs the Feishu webhook: enter it too"]);
    const zh = said("zh-CN");
    expect(zh.every((m) => typeof m === "string" && /[\u4e00-\u9fff]/.test(m))).toBe(true);
    expect(zh[0]).toContain("60");
  });

  it("discovery start form", () => {
    expect(codesOf(startDiscoverySchema, { topicId: "", seedSetId: "x", strategy: "nope", maxPages: "0", hostDelayMs: "1.5" })).toEqual({
      topicId: ["chooseTopic"],
      seedSetId: ["chooseSeedSet"],
      strategy: ["strategyOneOf"],
      maxPages: ["atLeast"],
      hostDelayMs: ["wholeNumber"],
    });
  });

  it("cron expressions and seed lines", () => {
    // (The refinement runs too and adds its own: the first says it.)
    expect(codesOf(cronExpression, "")._?.[0]).toBe("cronRequired");
    expect(codesOf(cronExpression, "* * *")).toEqual({ _: ["cronFields"] });
    const { invalid } = parseSeedList(`ftp://x.example/\nhttps://u:p@x.example/\nhttps://${"a".repeat(2100)}.example/\n`);
    expect(invalid.map((l) => l.problem.code)).toEqual(["urlProtocol", "urlCredentials", "urlTooLong"]);
    // The English reason stays for the CLI.
    expect(invalid[0]!.reason).toBe("only http and https URLs are allowed (got ftp:)");
  });

  it("account URLs: empty, not a URL, not http, no platform, wrong shape, a search without a word or with bad pages", () => {
    const form = { interval: "0 * * * *" };
    const urls = [
      "",
      "not a url",
      "ftp://x.example/",
      "https://weibo.com/hot",
      "https://m.weibo.cn/search",
      "https://bbs.x.edu.cn/search.php?mod=forum&srchtxt=a&cw_pages=0",
    ];
    expect(urls.map((url) => codesOf(accountFormSchema, { ...form, url }).url)).toEqual([
      ["urlRequired", "urlInvalid"],
      ["urlInvalid"],
      ["urlProtocol"],
      ["platformShape"],
      ["noWord"],
      ["pagesParam"],
    ]);
    // The URL check of the recognise route (the form's own URL check comes first there).
    expect(["not a url", "ftp://x.example/"].map((url) => platformProblemCode(url, undefined)?.code)).toEqual(["platformUrlInvalid", "platformProtocol"]);
  });

  it("account URLs: said in both languages from the code, with the platform's shape from the platforms messages", () => {
    const r = accountFormSchema.safeParse({ interval: "0 * * * *", url: "https://blog.x.edu.cn/someone/", platform: "tieba" });
    const r2 = accountFormSchema.safeParse({ interval: "0 * * * *", url: "https://m.weibo.cn/search" });
    const issues = [...r.error!.issues, ...r2.error!.issues].filter((i) => i.path[0] === "url");
    const said = (locale: (typeof LOCALES)[number]) => {
      const messages = messagesFor(locale);
      const ts = {
        t: createTranslator({ locale, messages, namespace: "accounts.validation" }),
        tw: createTranslator({ locale, messages, namespace: "accounts.watch" }),
        tp: createTranslator({ locale, messages, namespace: "platforms" }),
      };
      return issues.map((i) => urlMessage(ts, { ...issueCode(i)!, message: i.message }));
    };
    const en = said("en");
    expect(en[0]).toMatch(/^unknown URL shape for a /);
    expect(en[0]).toContain("f?kw=");
    expect(en[1]).toMatch(/^This search URL has no word: add the word to search for, like https:\/\/m\.weibo\.cn\/search\?/);
    const zh = said("zh-CN");
    expect(zh[0]).toContain(messagesFor("zh-CN").platforms.tieba.shape);
    expect(zh.every((m) => /[\u4e00-\u9fff]/.test(m) && !/unknown URL shape|search URL with no word/.test(m))).toBe(true);
  });
});
