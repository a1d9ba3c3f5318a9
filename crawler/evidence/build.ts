/**
 * Building evidence packages (取证包) from what CampusWatch stored: for one post, or for the
 * flagged posts of an incident. Each post brings its raw page as fetched and a screenshot of that
 * page (drawn now when the crawl did not draw one: ./screenshot.ts), every stored version with
 * its times, its deletion time, its OCR text and its flags; lib/evidence/package.ts signs and zips
 * them. Only reads the database: the dashboard's route, the CLI and tests share this.
 */
import os from "node:os";
import path from "node:path";
import { dataDir } from "../../lib/config";
import type { Db } from "../../lib/db";
import { loadEvidenceKey, type EvidenceKey } from "../../lib/evidence/key";
import {
  installIdentity,
  sealEvidencePackage,
  type EvidenceFile,
  type EvidenceManifest,
  type EvidencePostEntry,
  type EvidenceSubject,
} from "../../lib/evidence/package";
import { CAMPUSWATCH_VERSION } from "../../lib/version";
import { readArchived } from "../archive";
import { readStoredScreenshot, screenshotPathOf, type ScreenshotRenderer, type StoredScreenshot } from "./screenshot";
import { KEPT_FLAG_STATUSES } from "./keep";
import { deletionKey, deletionPayloadStart } from "../../lib/notify";

/** Most posts in one incident's package (the hottest incidents have hundreds; a package stays downloadable). */
export const MAX_PACKAGE_POSTS = 300;

/** Options of the builders. */
export interface BuildEvidenceOptions {
  /** `user:<name>` for the dashboard, `cli:<os user>` for the CLI. @default cli:<os user> */
  createdBy?: string;
  /** The raw archive. @default <data dir>/archive */
  archiveDir?: string;
  /**
   * Draws the screenshots the crawl did not (flagged since, or Chromium was busy). Null: use only
   * stored screenshots and say so in the manifest.
   */
  renderer?: ScreenshotRenderer | null;
  /** The signing key. @default the install's (lib/evidence/key.ts) */
  key?: EvidenceKey;
  now?: Date;
}

/** A built package. */
export interface BuiltEvidence {
  zip: Buffer;
  manifest: EvidenceManifest;
  /** A file name for the download: `campuswatch-evidence-post-12-20261203.zip`. */
  fileName: string;
}

const POST_SELECT = {
  id: true,
  kind: true,
  url: true,
  platformId: true,
  title: true,
  text: true,
  html: true,
  author: true,
  authorId: true,
  publishedAt: true,
  firstSeenAt: true,
  lastSeenAt: true,
  deletedAt: true,
  ocrText: true,
  sha1: true,
  version: true,
  archivePath: true,
  accountId: true,
  account: { select: { id: true, name: true, platform: true, entryUrl: true } },
  sources: { select: { account: { select: { entryUrl: true } } } },
  versions: { orderBy: { version: "asc" as const } },
  flags: { orderBy: { id: "asc" as const }, include: { topic: { select: { name: true } } } },
};

/** The package of one post; null when there is no such post. */
export async function buildPostEvidence(db: Db, postId: number, options: BuildEvidenceOptions = {}): Promise<BuiltEvidence | null> {
  const exists = await db.post.findUnique({ where: { id: postId }, select: { id: true } });
  if (!exists) return null;
  return build(db, [postId], { kind: "post", postId }, `post-${postId}`, options);
}

/**
 * The package of an incident: its member posts with an open or confirmed flag (a dismissed flag
 * is a reviewer's "not relevant"), at most {@link MAX_PACKAGE_POSTS}, the earliest first. Null
 * when there is no such incident; a package with no post when none of its members is flagged.
 */
export async function buildIncidentEvidence(db: Db, incidentId: number, options: BuildEvidenceOptions = {}): Promise<BuiltEvidence | null> {
  const incident = await db.incident.findUnique({ where: { id: incidentId }, select: { id: true, title: true, status: true } });
  if (!incident) return null;
  const members = await db.incidentPost.findMany({
    where: { incidentId, post: { flags: { some: { status: { in: [...KEPT_FLAG_STATUSES] } } } } },
    select: { postId: true, post: { select: { publishedAt: true } } },
  });
  members.sort((a, b) => a.post.publishedAt.getTime() - b.post.publishedAt.getTime() || a.postId - b.postId);
  const postIds = members.slice(0, MAX_PACKAGE_POSTS).map((m) => m.postId);
  const subject: EvidenceSubject = { kind: "incident", incidentId, title: incident.title, status: incident.status, postIds };
  return build(db, postIds, subject, `incident-${incidentId}`, options, members.length);
}

/** What a package's page file is called, by what the archived body is. */
function pageExtension(body: string): "html" | "json" | "txt" {
  const start = body.trimStart();
  if (start.startsWith("<") || start.startsWith("\uFEFF<")) return "html";
  if (/^[[{]/.test(start)) {
    try {
      JSON.parse(body);
      return "json";
    } catch {
      return "txt";
    }
  }
  return "txt";
}

async function build(
  db: Db,
  postIds: number[],
  subject: EvidenceSubject,
  label: string,
  options: BuildEvidenceOptions,
  memberCount = postIds.length,
): Promise<BuiltEvidence> {
  const now = options.now ?? new Date();
  const archiveDir = options.archiveDir ?? path.join(dataDir(), "archive");
  const key = options.key ?? loadEvidenceKey();
  const rows = await db.post.findMany({ where: { id: { in: postIds } }, select: POST_SELECT });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const files: EvidenceFile[] = [];
  const pages = new Map<string, { page: EvidencePostEntry["rawPage"]; shot: EvidencePostEntry["screenshot"]; notes: string[] }>();
  const posts: EvidencePostEntry[] = [];
  const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, "utf8");

  for (const id of postIds) {
    const p = byId.get(id);
    if (!p) continue; // deleted from CampusWatch between the two reads
    const dir = `post-${p.id}`;
    const own: string[] = [];
    const notes: string[] = [];

    // The raw page and its screenshot, once per archived page (many posts share a listing page).
    let page: EvidencePostEntry["rawPage"] = null;
    let shot: EvidencePostEntry["screenshot"] = null;
    if (!p.archivePath) {
      notes.push("no raw page was archived for this post (archiving was off when it was crawled)");
    } else if (pages.has(p.archivePath)) {
      const known = pages.get(p.archivePath)!;
      ({ page, shot } = known);
      notes.push(...known.notes);
    } else {
      const pageNotes: string[] = [];
      const hash = path.basename(p.archivePath).replace(/\.json\.gz$/, "");
      let archived: { url: string; archivedAt: string; body: string } | null = null;
      try {
        archived = await readArchived(archiveDir, p.archivePath);
      } catch (e) {
        pageNotes.push(
          (e as NodeJS.ErrnoException).code === "ENOENT"
            ? "the raw page is no longer in the archive (removed by its retention before the post was flagged)"
            : `the raw page could not be read (${(e as Error).message})`,
        );
      }
      if (archived) {
        const name = `pages/${hash}.${pageExtension(archived.body)}`;
        files.push({ name, data: Buffer.from(archived.body, "utf8") });
        page = { url: archived.url, fetchedAt: archived.archivedAt, file: name };
        let stored: StoredScreenshot | null = await readStoredScreenshot(archiveDir, screenshotPathOf(p.archivePath));
        if (!stored && options.renderer) {
          try {
            stored = await options.renderer.ensure(archiveDir, p.archivePath);
          } catch (e) {
            pageNotes.push(`the screenshot could not be drawn (${(e as Error).message.split("\n")[0]})`);
          }
        } else if (!stored) {
          pageNotes.push("no screenshot: none was drawn at crawl time and drawing was not available here");
        }
        if (stored) {
          const shotName = `pages/${hash}.png`;
          files.push({ name: shotName, data: stored.png, compress: false });
          shot = { file: shotName, takenAt: stored.takenAt.toISOString(), width: stored.width, height: stored.height, from: "archived-page" };
        }
      }
      pages.set(p.archivePath, { page, shot, notes: pageNotes });
      notes.push(...pageNotes);
    }
    if (page) own.push(page.file);
    if (shot) own.push(shot.file);
    if (p.deletedAt) notes.push(...(await deletionNotes(db, p.id, p.deletedAt)));

    // Every version: the stored earlier ones, then the current content (seen since the last was replaced).
    const versions: EvidencePostEntry["versions"] = [];
    for (const v of p.versions) {
      const name = `${dir}/versions/v${v.version}.json`;
      files.push({
        name,
        data: json({
          version: v.version,
          title: v.title,
          text: v.text,
          html: v.html,
          contentHash: v.sha1,
          seenAt: v.seenAt.toISOString(),
          replacedAt: v.replacedAt.toISOString(),
        }),
      });
      versions.push({ version: v.version, file: name, seenAt: v.seenAt.toISOString(), replacedAt: v.replacedAt.toISOString() });
      own.push(name);
    }
    const currentSeen = p.versions.at(-1)?.replacedAt ?? p.firstSeenAt;
    const current = `${dir}/versions/v${p.version}.json`;
    if (!versions.some((v) => v.version === p.version)) {
      files.push({
        name: current,
        data: json({
          version: p.version,
          title: p.title,
          text: p.text,
          html: p.html,
          contentHash: p.sha1,
          seenAt: currentSeen.toISOString(),
          replacedAt: null,
          deletedAt: p.deletedAt?.toISOString() ?? null,
        }),
      });
      versions.push({ version: p.version, file: current, seenAt: currentSeen.toISOString(), replacedAt: null });
      own.push(current);
    }
    if (p.ocrText) {
      files.push({ name: `${dir}/ocr.txt`, data: Buffer.from(p.ocrText, "utf8") });
      own.push(`${dir}/ocr.txt`);
    }

    const entry: EvidencePostEntry = {
      postId: p.id,
      kind: p.kind,
      url: p.url,
      platform: p.account.platform,
      accountId: p.account.id,
      accountName: p.account.name,
      platformId: p.platformId,
      title: p.title,
      author: p.author,
      authorId: p.authorId,
      publishedAt: p.publishedAt.toISOString(),
      firstSeenAt: p.firstSeenAt.toISOString(),
      lastSeenAt: p.lastSeenAt.toISOString(),
      deletedAt: p.deletedAt?.toISOString() ?? null,
      rawPage: page,
      screenshot: shot,
      versions,
      sourceUrls: [...new Set([p.account.entryUrl, ...p.sources.map((s) => s.account.entryUrl)])],
      flags: p.flags.map((f) => ({
        flagId: f.id,
        topic: f.topic.name,
        status: f.status,
        score: f.score,
        createdAt: f.createdAt.toISOString(),
        reviewedAt: f.reviewedAt?.toISOString() ?? null,
      })),
      notes,
      files: own,
    };
    files.push({ name: `${dir}/post.json`, data: json(entry) });
    entry.files.push(`${dir}/post.json`);
    posts.push(entry);
  }
  if (memberCount > postIds.length) {
    files.push({
      name: "NOTE.txt",
      data: Buffer.from(`This package holds the first ${postIds.length} of the incident's ${memberCount} flagged posts (by publication time).\n`, "utf8"),
    });
  }

  const { zip, manifest } = sealEvidencePackage(
    files,
    { createdAt: now, createdBy: options.createdBy ?? `cli:${os.userInfo().username}`, install: installIdentity(key, CAMPUSWATCH_VERSION), subject, posts },
    key,
  );
  const day = now.toISOString().slice(0, 10).replace(/-/g, "");
  return { zip, manifest, fileName: `campuswatch-evidence-${label}-${day}.zip` };
}

/**
 * What the package says of a post deleted from its platform: when CampusWatch noticed it, and the
 * deletion notices (删帖提醒) sent about it, so the case file shows who was told and when.
 */
async function deletionNotes(db: Db, postId: number, deletedAt: Date): Promise<string[]> {
  const notices = await db.notification.findMany({
    where: { payload: { startsWith: deletionPayloadStart(deletionKey(postId, deletedAt)) } },
    select: { channel: true, status: true, sentAt: true, createdAt: true, topic: { select: { name: true } } },
    orderBy: { id: "asc" },
  });
  return [
    `deleted from its platform: CampusWatch noticed it gone at ${deletedAt.toISOString()}; the content here is the post as last seen before that`,
    ...notices.map(
      (n) =>
        `deletion notice (删帖提醒) for the topic "${n.topic.name}" on ${n.channel}: ${n.status}${n.sentAt ? ` at ${n.sentAt.toISOString()}` : ` (queued ${n.createdAt.toISOString()})`}`,
    ),
  ];
}
