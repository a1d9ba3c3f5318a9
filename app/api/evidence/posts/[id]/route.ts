import { db } from "@/lib/db";
import { evidenceRoute } from "@/server/evidence";

/**
 * GET /api/evidence/posts/:id — the post's evidence package (取证包): a signed ZIP with its raw
 * page, a screenshot of it, every version, its deletion time and OCR text. Permission: export.
 */
export const GET = evidenceRoute(db, "post");
