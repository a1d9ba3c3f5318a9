import { NextResponse } from "next/server";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { jsonError, withAuth } from "@/lib/http";
import { cronProblemCode, nextRunTimes, parseInput } from "@/lib/validation";
import { cronMessage } from "@/app/(dashboard)/accounts/_lib/problems";

const querySchema = z.object({ expr: z.string().max(200) });

/** GET /api/cron-preview?expr= — the next five run times of a cron expression (Asia/Shanghai), or why it is invalid (in the reader's language). */
export const GET = withAuth("read", async (req) => {
  const { expr } = parseInput(querySchema, Object.fromEntries(new URL(req.url).searchParams));
  const problem = cronProblemCode(expr);
  if (problem) return jsonError(400, cronMessage(await getTranslations("accounts.validation"), problem), "invalid-cron");
  return NextResponse.json({ times: nextRunTimes(expr, 5).map((d) => d.toISOString()) });
});
