/**
 * A reviewer's changes to incidents: merge, split, rename, mark handled, reopen and "not one
 * incident" (dismiss). Each runs in one transaction that also writes its IncidentAction row (who,
 * what, note) and recomputes the figures of every incident whose members changed, so the history
 * and the figures never disagree with the membership.
 *
 * What clustering must respect afterwards is written into the rows: moved posts are `pinned`, a
 * renamed title is `titleLocked`, a merged incident forwards to `mergedIntoId`, a dismissed one
 * keeps its posts (clustering leaves them alone) and takes no new ones.
 */
import type { Db } from "../../lib/db";
import { parseJsonColumn } from "../../lib/json-column";
import { z } from "zod";
import { recomputeIncidentFigures, type IncidentTx } from "./figures";

/** The kinds of IncidentAction rows. */
export type IncidentActionKind = "merge" | "split" | "rename" | "dismiss" | "handle" | "reopen";

/** Why a reviewer's change was refused: a stable code (a key of the dashboard's `incidents.errors`). */
export type IncidentReviewCode = "notFound" | "sameIncident" | "wrongState" | "notMembers" | "keepOne" | "emptyTitle";

/** A refused change; nothing was written. */
export class IncidentReviewError extends Error {
  override name = "IncidentReviewError";
  constructor(
    readonly code: IncidentReviewCode,
    message: string,
  ) {
    super(message);
  }
}

/** Who acts and why (the dashboard user; null for the CLI). */
export interface ReviewActor {
  userId: number | null;
  note?: string;
}

/** Longest title and note kept (longer input is refused by the callers' schemas, cut here as a last guard). */
export const INCIDENT_TITLE_MAX = 200;
export const INCIDENT_NOTE_MAX = 1000;

/** States a reviewer may merge, split or rename (a merged incident is only a forward). */
const LIVE = ["candidate", "open", "handled"] as const;

const stringList = z.array(z.string());

async function loadIncident(tx: IncidentTx, id: number) {
  const row = await tx.incident.findUnique({ where: { id }, select: { id: true, status: true, title: true, keywords: true } });
  if (!row) throw new IncidentReviewError("notFound", `incident ${id} not found`);
  return row;
}

function requireState(row: { id: number; status: string }, allowed: readonly string[]): void {
  if (!allowed.includes(row.status)) throw new IncidentReviewError("wrongState", `incident ${row.id} is ${row.status}`);
}

/**
 * Move an incident to `status` only if it is still in one of `from` (a concurrent change between
 * the read and the write refuses instead of overwriting it).
 */
async function transition(
  tx: IncidentTx,
  id: number,
  from: readonly string[],
  data: { status: string; handledAt?: Date | null; mergedIntoId?: number },
): Promise<void> {
  const { count } = await tx.incident.updateMany({ where: { id, status: { in: [...from] } }, data: { ...data, updatedAt: new Date() } });
  if (count === 0) throw new IncidentReviewError("wrongState", `incident ${id} changed meanwhile`);
}

async function record(tx: IncidentTx, incidentId: number, kind: IncidentActionKind, actor: ReviewActor, detail: Record<string, unknown>): Promise<void> {
  await tx.incidentAction.create({
    data: { incidentId, kind, userId: actor.userId, note: (actor.note ?? "").slice(0, INCIDENT_NOTE_MAX), detail: JSON.stringify(detail) },
  });
}

function run<T>(db: Db, body: (tx: IncidentTx) => Promise<T>): Promise<T> {
  // Interactive transactions wait for SQLite's single writer; crawls may hold it for a while.
  return db.$transaction(body, { maxWait: 10_000, timeout: 30_000 });
}

/**
 * Fold incident `fromId` into `intoId`: every member of `from` moves to `into` and is pinned
 * there (keeping the reason, score and matched post that brought it in: those posts moved with
 * it, so the explanation still holds), `from` becomes "merged" with `mergedIntoId`, incidents
 * merged into `from` earlier now forward to `into`, and `into` gains `from`'s keywords after its
 * own. The action row is written on `into` with `{ from, into, postIds }`.
 */
export async function mergeIncidents(db: Db, input: { intoId: number; fromId: number } & ReviewActor): Promise<{ moved: number }> {
  if (input.intoId === input.fromId) throw new IncidentReviewError("sameIncident", "an incident cannot be merged into itself");
  return run(db, async (tx) => {
    const into = await loadIncident(tx, input.intoId);
    const from = await loadIncident(tx, input.fromId);
    requireState(into, LIVE);
    requireState(from, LIVE);
    // First close `from`: once it is "merged", clustering forwards new posts to `into`.
    await transition(tx, from.id, LIVE, { status: "merged", mergedIntoId: into.id });
    const members = await tx.incidentPost.findMany({ where: { incidentId: from.id }, select: { postId: true }, orderBy: { postId: "asc" } });
    const postIds = members.map((m) => m.postId);
    await tx.incidentPost.updateMany({ where: { incidentId: from.id }, data: { incidentId: into.id, pinned: true } });
    await tx.incident.updateMany({ where: { mergedIntoId: from.id }, data: { mergedIntoId: into.id } });
    const keywords = [...new Set([...parseJsonColumn(into.keywords, stringList, []), ...parseJsonColumn(from.keywords, stringList, [])])].slice(0, 12);
    await tx.incident.update({ where: { id: into.id }, data: { keywords: JSON.stringify(keywords) } });
    await recomputeIncidentFigures(tx, into.id);
    await recomputeIncidentFigures(tx, from.id);
    await record(tx, into.id, "merge", input, { from: from.id, into: into.id, postIds, fromTitle: from.title });
    return { moved: postIds.length };
  });
}

/**
 * Move `postIds` (members of `incidentId`) into a new "open" incident, pinned there with reason
 * "reviewer". Its title is `title` (then locked) or, without one, its representative post's title
 * or opening text; its keywords are those of the old incident that occur in the moved posts. At
 * least one member must stay. The action row is written on the old incident with
 * `{ from, into, postIds }`. Returns the new incident's id.
 */
export async function splitIncident(
  db: Db,
  input: { incidentId: number; postIds: readonly number[]; title?: string } & ReviewActor,
): Promise<{ newIncidentId: number }> {
  const postIds = [...new Set(input.postIds)].sort((a, b) => a - b);
  const title = input.title?.trim().slice(0, INCIDENT_TITLE_MAX) ?? "";
  return run(db, async (tx) => {
    const source = await loadIncident(tx, input.incidentId);
    requireState(source, LIVE);
    const members = await tx.incidentPost.findMany({
      where: { incidentId: source.id },
      select: { postId: true, post: { select: { title: true, text: true, ocrText: true, publishedAt: true } } },
    });
    const byId = new Map(members.map((m) => [m.postId, m.post]));
    const missing = postIds.filter((id) => !byId.has(id));
    if (postIds.length === 0 || missing.length > 0)
      throw new IncidentReviewError("notMembers", `not members of incident ${source.id}: ${missing.join(", ") || "none chosen"}`);
    if (postIds.length >= members.length) throw new IncidentReviewError("keepOne", "a split must leave at least one post in the incident");
    const moved = postIds.map((id) => byId.get(id)!);
    const times = moved.map((p) => p.publishedAt.getTime());
    const texts = moved.map((p) => `${p.title}\n${p.text}\n${p.ocrText ?? ""}`).join("\n");
    const keywords = parseJsonColumn(source.keywords, stringList, []).filter((k) => k && texts.includes(k));
    const created = await tx.incident.create({
      data: {
        status: "open",
        title,
        titleLocked: title !== "",
        keywords: JSON.stringify(keywords),
        firstSeenAt: new Date(Math.min(...times)),
        lastSeenAt: new Date(Math.max(...times)),
      },
      select: { id: true },
    });
    await tx.incidentPost.updateMany({
      where: { incidentId: source.id, postId: { in: postIds } },
      data: { incidentId: created.id, pinned: true, reason: "reviewer", score: null, matchedPostId: null },
    });
    // Without a title given, the new incident's title comes from its representative post.
    await recomputeIncidentFigures(tx, created.id);
    await recomputeIncidentFigures(tx, source.id);
    await record(tx, source.id, "split", input, { from: source.id, into: created.id, postIds });
    return { newIncidentId: created.id };
  });
}

/** Rename an incident and lock its title (clustering never changes it again). */
export async function renameIncident(db: Db, input: { incidentId: number; title: string } & ReviewActor): Promise<void> {
  const title = input.title.trim().slice(0, INCIDENT_TITLE_MAX);
  if (!title) throw new IncidentReviewError("emptyTitle", "a title is required");
  await run(db, async (tx) => {
    const row = await loadIncident(tx, input.incidentId);
    requireState(row, [...LIVE, "dismissed"]);
    await tx.incident.update({ where: { id: row.id }, data: { title, titleLocked: true, updatedAt: new Date() } });
    await record(tx, row.id, "rename", input, { oldTitle: row.title, newTitle: title });
  });
}

/** The status changes a reviewer makes, and the states each starts from. */
const STATUS_MOVES = {
  handle: { from: ["candidate", "open"], to: "handled" },
  reopen: { from: ["handled", "dismissed"], to: "open" },
  dismiss: { from: ["candidate", "open", "handled"], to: "dismissed" },
} as const satisfies Record<string, { from: readonly string[]; to: string }>;

/** A status change a reviewer can ask for. */
export type IncidentStatusMove = keyof typeof STATUS_MOVES;

/**
 * Mark an incident handled (it still takes new posts), reopen a handled or dismissed one, or
 * dismiss it ("not one incident": its posts stay with it, so clustering leaves them alone, and it
 * takes no new ones). Figures are recomputed (a flag reviewed since the last change counts now).
 */
export async function setIncidentStatus(db: Db, input: { incidentId: number; move: IncidentStatusMove } & ReviewActor): Promise<void> {
  const move = STATUS_MOVES[input.move];
  await run(db, async (tx) => {
    const row = await loadIncident(tx, input.incidentId);
    requireState(row, move.from);
    await transition(tx, row.id, move.from, { status: move.to, handledAt: move.to === "handled" ? new Date() : null });
    await recomputeIncidentFigures(tx, row.id);
    await record(tx, row.id, input.move, input, { from: row.status, to: move.to });
  });
}
