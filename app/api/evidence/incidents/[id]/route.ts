import { db } from "@/lib/db";
import { evidenceRoute } from "@/server/evidence";

/**
 * GET /api/evidence/incidents/:id — the evidence package of an incident's flagged posts (open or
 * confirmed flags): one signed ZIP with each post's raw page, screenshot, versions and OCR text.
 * Permission: export.
 */
export const GET = evidenceRoute(db, "incident");
