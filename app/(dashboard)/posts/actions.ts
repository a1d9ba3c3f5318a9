"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import type { z } from "zod";
import { db } from "@/lib/db";
import { reviewFlags, reviewInputSchema } from "@/server/reviews";
import { formValues, guard, type FormState } from "../_lib/form";
import { safeLocalPath } from "@/lib/safe-path";

type ActionTranslate = Awaited<ReturnType<typeof getTranslations<"posts.action">>>;

/** One issue of reviewInputSchema (server/reviews.ts) in the reader's language. */
function issueText(issue: z.core.$ZodIssue, t: ActionTranslate): string {
  const field = String(issue.path[0] ?? "");
  if (field === "flagIds") {
    if (issue.code === "too_big") return t("tooMany", { max: Number(issue.maximum) });
    return t("selectOne");
  }
  if (field === "note" && issue.code === "too_big") return t("noteTooLong", { max: Number(issue.maximum) });
  return t("decision");
}

/**
 * Confirm or dismiss one or more flags (the detail page's form or the list's bulk bar).
 * `flagId` may repeat, and each value may hold several comma-separated ids (one row, all its flags).
 */
export async function reviewAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const flagIds = formData
    .getAll("flagId")
    // A File in place of an id (a forged form) holds no ids.
    .flatMap((v) => (typeof v === "string" ? v.split(",") : []))
    .map((s) => s.trim())
    .filter(Boolean);
  const parsed = reviewInputSchema.safeParse({ flagIds, decision: formData.get("decision"), note: formData.get("note") ?? "" });
  const t = await getTranslations("posts.action");
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[issue.path.map(String).join(".") || "_"] ??= []).push(issueText(issue, t));
    const first = parsed.error.issues[0];
    return { errors, message: first ? issueText(first, t) : undefined, values };
  }
  const { user, state } = await guard("review");
  if (state) return { ...state, values };
  const n = await reviewFlags(db, parsed.data, user);
  if (n === 0) return { message: t("gone"), values };
  revalidatePath("/", "layout");
  const back = new URL(safeLocalPath(formData.get("returnTo")), "http://x");
  back.searchParams.set("reviewed", `${parsed.data.decision}:${n}`);
  redirect(back.pathname + back.search + back.hash);
}
