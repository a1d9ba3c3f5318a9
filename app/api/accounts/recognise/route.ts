import { NextResponse } from "next/server";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { withAuth } from "@/lib/http";
import { parseInput } from "@/lib/validation";
import { recognisePlatform } from "@/crawler/adapters";
import { platformProblemCode } from "@/server/accounts";
import { urlMessage } from "@/app/(dashboard)/accounts/_lib/problems";

const querySchema = z.object({ url: z.string().max(2000) });

/** GET /api/accounts/recognise?url= — the platform an entry URL belongs to, and any problem with its shape (in the reader's language). */
export const GET = withAuth("manage-accounts", async (req) => {
  const { url } = parseInput(querySchema, Object.fromEntries(new URL(req.url).searchParams));
  const platform = recognisePlatform(url.trim());
  const problem = url.trim() ? platformProblemCode(url, undefined) : null;
  if (!problem) return NextResponse.json({ platform, problem: null });
  const [t, tw, tp] = await Promise.all([getTranslations("accounts.validation"), getTranslations("accounts.watch"), getTranslations("platforms")]);
  return NextResponse.json({ platform, problem: urlMessage({ t, tw, tp }, problem) });
});
