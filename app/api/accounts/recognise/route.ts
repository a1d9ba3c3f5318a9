import { NextResponse } from "next/server";
import { z } from "zod";
import { withAuth } from "@/lib/http";
import { parseInput } from "@/lib/validation";
import { recognisePlatform } from "@/crawler/adapters";
import { platformProblem } from "@/lib/queries/accounts";

const querySchema = z.object({ url: z.string().max(2000) });

/** GET /api/accounts/recognise?url= — the platform an entry URL belongs to, and any problem with its shape. */
export const GET = withAuth("manage-accounts", async (req) => {
  const { url } = parseInput(querySchema, Object.fromEntries(new URL(req.url).searchParams));
  const platform = recognisePlatform(url.trim());
  return NextResponse.json({ platform, problem: url.trim() ? platformProblem(url, undefined) : null });
});
