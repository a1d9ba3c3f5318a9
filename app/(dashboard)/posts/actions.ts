"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { db } from "@/lib/db";
import { reviewFlags, reviewInputSchema } from "@/lib/queries/reviews";
import { formValues, guard, invalid, safeReturnPath, type FormState } from "../_lib/form";

/**
 * Confirm or dismiss one or more flags (the detail page's form or the list's bulk bar).
 * `flagId` may repeat, and each value may hold several comma-separated ids (one row, all its flags).
 */
export async function reviewAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const flagIds = formData
    .getAll("flagId")
    .flatMap((v) => String(v).split(","))
    .map((s) => s.trim())
    .filter(Boolean);
  const parsed = reviewInputSchema.safeParse({ flagIds, decision: formData.get("decision"), note: formData.get("note") ?? "" });
  if (!parsed.success) return invalid(parsed.error, values, parsed.error.issues[0]?.message);
  const { user, state } = await guard("review");
  if (state) return { ...state, values };
  const n = await reviewFlags(db, parsed.data, user.id);
  if (n === 0) return { message: "Those flags no longer exist.", values };
  revalidatePath("/", "layout");
  const back = new URL(safeReturnPath(formData.get("returnTo"), "/"), "http://x");
  back.searchParams.set("reviewed", `${parsed.data.decision}:${n}`);
  redirect(back.pathname + back.search + back.hash);
}
