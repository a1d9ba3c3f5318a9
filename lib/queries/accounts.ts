/** Monitored accounts: validation and data access shared by the CLI, the dashboard and the scheduler. */
import { z } from "zod";
import type { Db } from "../db";
import { Prisma } from "@/generated/prisma/client";
import { cronExpression, httpUrl, parseInput, ValidationError } from "../validation";
import { recognisePlatform } from "@/crawler/adapters";
import { PLATFORMS, type Platform } from "@/crawler/types";

/** Default crawl interval per platform: fast-moving platforms are polled more often. */
export const DEFAULT_CRON: Record<Platform, string> = {
  weibo: "*/10 * * * *",
  tieba: "*/15 * * * *",
  discuz: "*/30 * * * *",
  blog: "0 * * * *",
};

const optionalInt = (min: number) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().int().min(min).optional());

export const accountInputSchema = z.object({
  url: httpUrl,
  name: z.string().trim().max(200).optional(),
  platform: z.enum(PLATFORMS as unknown as [Platform, ...Platform[]]).optional(),
  cron: cronExpression.optional(),
  enabled: z.boolean().optional(),
  fetchMode: z.enum(["auto", "http", "browser"]).optional(),
  backfillDays: optionalInt(1),
  backfillPages: optionalInt(1),
  recheckDays: optionalInt(0),
  ocr: z.boolean().optional(),
});
export type AccountInput = z.input<typeof accountInputSchema>;

/** Normalise an entry URL so the same account cannot be registered twice by a trailing '#…'. */
export function normaliseEntryUrl(url: string): string {
  const u = new URL(url.trim());
  u.hash = "";
  return u.toString();
}

/** Validate and register an account. Throws ValidationError with field errors (url, cron, platform…). */
export async function createAccount(db: Db, input: AccountInput) {
  const data = parseInput(accountInputSchema, input);
  const entryUrl = normaliseEntryUrl(data.url);
  const platform = data.platform ?? recognisePlatform(new URL(entryUrl));
  if (!platform) {
    throw new ValidationError("url: cannot tell the platform from this URL; choose one", {
      url: ["cannot tell the platform from this URL; choose one"],
    });
  }
  const name = data.name || defaultName(entryUrl);
  try {
    return await db.account.create({
      data: {
        platform,
        entryUrl,
        name,
        cron: data.cron ?? DEFAULT_CRON[platform],
        enabled: data.enabled ?? true,
        fetchMode: data.fetchMode ?? "auto",
        backfillDays: data.backfillDays ?? null,
        backfillPages: data.backfillPages ?? null,
        recheckDays: data.recheckDays ?? 0,
        ocr: data.ocr ?? false,
      },
    });
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
      throw new ValidationError(`url: ${entryUrl} is already registered`, { url: ["this URL is already registered"] });
    }
    throw e;
  }
}

function defaultName(entryUrl: string): string {
  const u = new URL(entryUrl);
  const kw = u.searchParams.get("kw");
  if (kw) return `${kw}吧`;
  const fid = u.searchParams.get("fid");
  if (fid) return `${u.host} board ${fid}`;
  return `${u.host}${u.pathname === "/" ? "" : u.pathname.replace(/\/$/, "")}`;
}

/** Accounts with their post and error counts, for lists. */
export async function listAccounts(db: Db) {
  const accounts = await db.account.findMany({ orderBy: { id: "asc" } });
  const postCounts = await db.post.groupBy({ by: ["accountId"], _count: { _all: true } });
  const errorCounts = await db.crawlRun.groupBy({ by: ["accountId"], _sum: { errorCount: true } });
  const posts = new Map(postCounts.map((r) => [r.accountId, r._count._all]));
  const errors = new Map(errorCounts.map((r) => [r.accountId, r._sum.errorCount ?? 0]));
  return accounts.map((a) => ({ ...a, postCount: posts.get(a.id) ?? 0, errorCount: errors.get(a.id) ?? 0 }));
}

/** Delete an account and, by cascade, its posts, runs and history. Returns what was removed. */
export async function removeAccount(db: Db, id: number) {
  const account = await db.account.findUnique({ where: { id } });
  if (!account) throw new ValidationError(`no account with id ${id}`, { id: ["not found"] });
  const posts = await db.post.count({ where: { accountId: id } });
  await db.account.delete({ where: { id } });
  return { account, posts };
}
