/**
 * Seed URL sets for topic discovery: named lists imported from plain text, one URL per line.
 *
 * A seed is a registered host, like an account's entry URL, and follows the same rule: its host's
 * address class is recorded when it is imported (lib/validation.ts checkRegisteredHost), a host
 * resolving to a link-local or metadata address is refused then, and a discovery run trusts a
 * seed's host on an internal address only when it was registered there (crawler/discover/session.ts).
 */
import { z } from "zod";
import { Prisma } from "@/generated/prisma/client";
import type { Db } from "../lib/db";
import { recordAudit, type AuditActor } from "../lib/audit";
import type { Resolver } from "../lib/net/address";
import { entryUrlProblemCode, ValidationError, type IssueCode } from "../lib/validation";
import { classifySeeds } from "@/crawler/discover/seed-class";

export interface SeedLine {
  line: number;
  text: string;
  /** Why, in English (the CLI prints it). */
  reason: string;
  /** Why, as a code (lib/validation.ts urlCronProblems or entryUrlProblems) and its values: what the dashboard says. */
  problem: IssueCode;
}

/**
 * Read a seed list: one URL per line; blank lines and lines starting with # are skipped. Valid
 * URLs are normalised (no fragment) and deduplicated; every other line is reported with why.
 */
export function parseSeedList(text: string): { urls: string[]; invalid: SeedLine[]; duplicates: number } {
  const urls: string[] = [];
  const seen = new Set<string>();
  const invalid: SeedLine[] = [];
  let duplicates = 0;
  text
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\n|\r/)
    .forEach((raw, i) => {
      const line = raw.trim();
      if (!line || line.startsWith("#")) return;
      // Seeds are registered hosts like account entry URLs: the same limits (length, no credentials, no metadata host).
      const problem = entryUrlProblemCode(line);
      if (problem) {
        invalid.push({ line: i + 1, text: line.slice(0, 200), reason: problem.message, problem: { code: problem.code, values: problem.values } });
        return;
      }
      const u = new URL(line);
      u.hash = "";
      const url = u.toString();
      if (seen.has(url)) {
        duplicates++;
        return;
      }
      seen.add(url);
      urls.push(url);
    });
  return { urls, invalid, duplicates };
}

export const seedSetNameSchema = z.string().trim().min(1, "a seed set needs a name").max(100, "at most 100 characters");

export async function listSeedSets(db: Db) {
  return db.seedSet.findMany({
    orderBy: { name: "asc" },
    include: { _count: { select: { urls: true, discoveries: true } }, urls: { take: 3, orderBy: { id: "asc" }, select: { url: true } } },
  });
}

export function getSeedSet(db: Db, id: number) {
  return db.seedSet.findUnique({
    where: { id },
    include: { urls: { orderBy: { id: "asc" } }, discoveries: { orderBy: { id: "desc" }, take: 10, include: { topic: { select: { name: true } } } } },
  });
}

export async function createSeedSet(db: Db, name: string, actor: AuditActor) {
  try {
    const set = await db.seedSet.create({ data: { name } });
    await recordAudit(db, actor, { kind: "seed", action: "create", targetId: set.id, target: set.name, after: { name } });
    return set;
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
      throw new ValidationError("name: a seed set with this name exists", { name: ["a seed set with this name already exists"] });
    }
    throw e;
  }
}

/**
 * Add the valid URLs of a text to a set, each with its host's address class
 * (crawler/discover/seed-class.ts classifySeeds). URLs already in the set are counted, not added twice.
 */
export async function importSeedUrls(db: Db, seedSetId: number, text: string, actor: AuditActor, options: { resolve?: Resolver } = {}) {
  const { urls, invalid, duplicates } = parseSeedList(text);
  const existing = new Set((await db.seedUrl.findMany({ where: { seedSetId, url: { in: urls } }, select: { url: true } })).map((u) => u.url));
  const candidates = urls.filter((u) => !existing.has(u));
  const { classes, refused } = await classifySeeds(candidates, options.resolve);
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  for (const [url, e] of refused) {
    const line = lines.findIndex((l) => l.trim() !== "" && normalSeed(l.trim()) === url) + 1;
    const reason = e.fieldErrors.url?.[0] ?? e.message;
    invalid.push({ line, text: url.slice(0, 200), reason, problem: { code: e.detail.code ?? "urlInvalid", values: e.detail.values } });
  }
  invalid.sort((a, b) => a.line - b.line);
  const fresh = candidates.filter((u) => classes.has(u));
  for (let i = 0; i < fresh.length; i += 500) {
    await db.seedUrl.createMany({ data: fresh.slice(i, i + 500).map((url) => ({ seedSetId, url, addressClass: classes.get(url) ?? null })) });
  }
  if (fresh.length > 0) {
    const set = await db.seedSet.findUnique({ where: { id: seedSetId }, select: { name: true } });
    await recordAudit(db, actor, {
      kind: "seed",
      action: "add-urls",
      targetId: seedSetId,
      target: set?.name ?? "",
      after: { added: fresh.length, urls: fresh.slice(0, 50) },
    });
  }
  return { added: fresh.length, alreadyThere: existing.size + duplicates, invalid };
}

/** A seed line as {@link parseSeedList} stores it (no fragment), or null when it is not a URL. */
function normalSeed(line: string): string | null {
  try {
    const u = new URL(line);
    u.hash = "";
    return u.toString();
  } catch {
    return null;
  }
}

export async function removeSeedUrl(db: Db, seedSetId: number, id: number, actor: AuditActor) {
  const row = await db.seedUrl.findFirst({ where: { id, seedSetId }, select: { url: true, seedSet: { select: { name: true } } } });
  const removed = await db.seedUrl.deleteMany({ where: { id, seedSetId } });
  if (row && removed.count > 0)
    await recordAudit(db, actor, { kind: "seed", action: "remove-url", targetId: seedSetId, target: row.seedSet.name, before: { url: row.url } });
  return removed;
}

export async function deleteSeedSet(db: Db, id: number, actor: AuditActor) {
  const set = await db.seedSet.delete({ where: { id } });
  await recordAudit(db, actor, { kind: "seed", action: "delete", targetId: id, target: set.name, before: { name: set.name } });
  return set;
}
