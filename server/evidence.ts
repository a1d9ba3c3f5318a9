/**
 * Evidence packages for the dashboard's downloads (app/api/evidence): built by the crawler's
 * evidence module with the signed-in user named as their maker. One package is built at a time
 * per dashboard process: each may start Chromium to draw screenshots the crawl did not, and a
 * burst of clicks must not start a browser each on a two-core server.
 */
import { incidentsInScope } from "./incidents";
import { z } from "zod";
import { crawlerConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { jsonError, withAuth } from "@/lib/http";
import { parseInput } from "@/lib/validation";
import type { CurrentUser } from "@/lib/auth/current-user";
import { buildIncidentEvidence, buildPostEvidence, ScreenshotRenderer, type BuiltEvidence } from "@/crawler/evidence";

let queue: Promise<unknown> = Promise.resolve();

/** Run `work` after every build asked for before it has finished. */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work, work);
  queue = next.catch(() => undefined);
  return next;
}

/**
 * The package of a post or an incident, made for `user`; null when there is no such post or
 * incident (an incident outside the user's topic scope counts as none). The caller has checked the
 * user's permission.
 */
export async function evidencePackageFor(db: Db, user: CurrentUser, subject: { kind: "post" | "incident"; id: number }): Promise<BuiltEvidence | null> {
  if (subject.kind === "incident" && !(await incidentsInScope(db, user.topics, [subject.id]))) return null;
  return oneAtATime(async () => {
    const renderer = new ScreenshotRenderer({ chromiumPath: crawlerConfig().chromiumPath, log: (m) => console.warn(`[evidence] ${m}`) });
    try {
      const options = { renderer, createdBy: `user:${user.username}` };
      return subject.kind === "post" ? await buildPostEvidence(db, subject.id, options) : await buildIncidentEvidence(db, subject.id, options);
    } finally {
      await renderer.close();
    }
  });
}

/** The download response of a built package. */
export function evidenceResponse(built: BuiltEvidence): Response {
  return new Response(new Uint8Array(built.zip), {
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${built.fileName}"`,
      "content-length": String(built.zip.length),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

const paramsSchema = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
});

/**
 * The route handler of `GET /api/evidence/posts/:id` and `GET /api/evidence/incidents/:id`: signed
 * in with the export permission (401 signed out, 403 without it), 404 for an unknown id, else the ZIP.
 */
export function evidenceRoute(db: Db, kind: "post" | "incident") {
  return withAuth("export", async (_req, user, ctx: { params: Promise<{ id: string }> }) => {
    const { id } = parseInput(paramsSchema, await ctx.params);
    const built = await evidencePackageFor(db, user, { kind, id });
    if (!built) return jsonError(404, kind === "post" ? "no such post" : "no such incident", "not-found");
    return evidenceResponse(built);
  });
}
