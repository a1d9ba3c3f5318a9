import { NextResponse } from "next/server";
import { db } from "@/lib/db";
import { withAuth } from "@/lib/http";
import { liveStatus } from "@/server/runs";

/** GET /api/runs/live — running crawls with their counters so far, and accounts waiting for "crawl now". */
export const GET = withAuth("read", async () => NextResponse.json(await liveStatus(db)));
