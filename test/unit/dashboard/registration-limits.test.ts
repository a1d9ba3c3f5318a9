/**
 * Registration limits of an entry URL (issue 29 item 4), the one validator behind `accounts add`,
 * the dashboard's account form and seed imports (lib/validation.ts): too long, credentials in the
 * URL, link-local and cloud metadata addresses and names, and a name resolving to one. Each
 * refusal has a code the dashboard says in both languages; nothing is stored.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAccount, updateAccount } from "@/server/accounts";
import { parseSeedList } from "@/server/seeds";
import { ValidationError } from "@/lib/validation";
import type { Resolver } from "@/lib/net/address";
import en from "@/messages/en.json";
import zh from "@/messages/zh-CN.json";
import { createTestDb, type TestDb } from "../../support/db";
import { CLI_ACTOR } from "../../../lib/audit";

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await t.cleanup();
});

/** Fixed answers instead of DNS. */
const resolve: Resolver = async (host) => {
  const table: Record<string, string[]> = {
    "meta.attacker.test": ["169.254.169.254"],
    "aws6.attacker.test": ["fd00:ec2::254"],
    "mixed.attacker.test": ["93.184.216.34", "169.254.0.23"],
    "blog.campus.test": ["93.184.216.34"],
  };
  const answer = table[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const long = `http://blog.campus.test/${"a".repeat(2030)}`;

const REFUSED: [string, string, RegExp][] = [
  [long, "urlTooLong", /the URL is 2054 characters long; at most 2048 are accepted/],
  ["http://admin:hunter2@blog.campus.test/", "urlCredentials", /user:password@/],
  ["http://admin@blog.campus.test/", "urlCredentials", /user:password@/],
  ["http://169.254.169.254/latest/meta-data/", "urlMetadataAddress", /169\.254\.169\.254 is a link-local or cloud metadata address/],
  ["http://169.254.0.23/", "urlMetadataAddress", /link-local or cloud metadata/],
  ["http://[fd00:ec2::254]/latest/", "urlMetadataAddress", /fd00:ec2::254 is a link-local/],
  ["http://[::ffff:169.254.169.254]/", "urlMetadataAddress", /link-local or cloud metadata/],
  ["http://[fe80::1]/", "urlMetadataAddress", /fe80::1 is a link-local/],
  ["http://100.100.100.200/latest/meta-data/", "urlMetadataAddress", /100\.100\.100\.200/],
  ["http://metadata.google.internal/computeMetadata/v1/", "urlMetadataName", /metadata\.google\.internal is a cloud metadata service/],
  ["http://METADATA.google.internal./", "urlMetadataName", /cloud metadata service/],
  ["http://meta.attacker.test/", "urlMetadataResolves", /meta\.attacker\.test resolves to 169\.254\.169\.254, a link-local or cloud metadata address/],
  ["http://aws6.attacker.test/", "urlMetadataResolves", /resolves to fd00:ec2::254/],
  ["http://mixed.attacker.test/", "urlMetadataResolves", /resolves to 169\.254\.0\.23/],
];

describe("entry URLs refused at registration", () => {
  const cases = REFUSED.map(([url, code, message]) => [url.length > 80 ? `${url.slice(0, 40)}… (${url.length} characters)` : url, url, code, message] as const);
  it.each(cases)("%s → %s", async (_title, url, code, message) => {
    const err = await createAccount(t.db, { url, platform: "blog" }, CLI_ACTOR, { resolve }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).detail.code).toBe(code);
    expect((err as ValidationError).message).toMatch(message);
    expect((err as ValidationError).fieldErrors.url).toHaveLength(1);
    // Said in both languages on the dashboard.
    expect(Object.keys(en.validation)).toContain(code);
    expect(Object.keys(zh.validation)).toContain(code);
    expect(await t.db.account.count()).toBe(0);
  });

  it("the same limits when an account's URL is changed; the class is found again for a new URL", async () => {
    const a = await createAccount(t.db, { url: "http://blog.campus.test/a/", platform: "blog" }, CLI_ACTOR, { resolve });
    expect(a.addressClass).toBe("public");
    const form = { url: "http://meta.attacker.test/", platform: "blog" as const, name: undefined, cron: "0 * * * *" };
    await expect(updateAccount(t.db, a.id, form, CLI_ACTOR, { resolve })).rejects.toMatchObject({ detail: { code: "urlMetadataResolves" } });
    await expect(updateAccount(t.db, a.id, { ...form, url: "http://u:p@blog.campus.test/a/" }, CLI_ACTOR, { resolve })).rejects.toMatchObject({
      detail: { code: "urlCredentials" },
    });
    const moved = await updateAccount(t.db, a.id, { ...form, url: "http://127.0.0.1:9/b/" }, CLI_ACTOR, { resolve });
    expect(moved.addressClass).toBe("internal");
  });

  it("at the limit, and a name that does not resolve now, are registered (the class is then found at the first crawl)", async () => {
    const atLimit = `http://blog.campus.test/${"a".repeat(2048 - "http://blog.campus.test/".length)}`;
    expect(atLimit).toHaveLength(2048);
    expect((await createAccount(t.db, { url: atLimit, platform: "blog" }, CLI_ACTOR, { resolve })).addressClass).toBe("public");
    expect((await createAccount(t.db, { url: "http://offline.campus.test/", platform: "blog" }, CLI_ACTOR, { resolve })).addressClass).toBeNull();
  });

  it("seed lists refuse the same lines, each with its reason", () => {
    const { urls, invalid } = parseSeedList(
      ["http://blog.campus.test/", long, "http://u:p@x.test/", "http://169.254.169.254/", "http://metadata.google.internal/"].join("\n"),
    );
    expect(urls).toEqual(["http://blog.campus.test/"]);
    expect(invalid.map((i) => i.line)).toEqual([2, 3, 4, 5]);
    expect(invalid[1]!.reason).toMatch(/user:password@/);
  });
});
