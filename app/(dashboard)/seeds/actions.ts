"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { db } from "@/lib/db";
import { ValidationError } from "@/lib/validation";
import { fileTooLarge, UPLOAD_LIMITS } from "@/lib/limits";
import { createSeedSet, deleteSeedSet, importSeedUrls, removeSeedUrl, seedSetNameSchema } from "@/lib/queries/seeds";
import { formValues, fromValidationError, guard, invalid, type FormState } from "../_lib/form";


/** The text of the import: the uploaded file, else the pasted lines. */
async function importText(formData: FormData): Promise<string> {
  const file = formData.get("file");
  if (file instanceof File && file.size > 0) {
    const tooLarge = fileTooLarge(file, UPLOAD_LIMITS.seedsBytes);
    if (tooLarge) throw new ValidationError("file: too large", { file: [tooLarge] });
    return file.text();
  }
  return String(formData.get("urls") ?? "");
}

function report(r: Awaited<ReturnType<typeof importSeedUrls>>): FormState {
  const details = r.invalid.slice(0, 100).map((i) => `line ${i.line}: ${i.text} — ${i.reason}`);
  if (r.invalid.length > 100) details.push(`… and ${r.invalid.length - 100} more`);
  return {
    ok: true,
    message: `Imported ${r.added} URL${r.added === 1 ? "" : "s"}${r.alreadyThere ? `, ${r.alreadyThere} already in the set` : ""}${r.invalid.length ? `; ${r.invalid.length} invalid line${r.invalid.length === 1 ? "" : "s"} skipped` : ""}.`,
    details,
  };
}

const createSchema = z.object({ name: seedSetNameSchema });

/** Create a named set and import its first URLs (file or pasted lines). */
export async function createSeedSetAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = createSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values);
  const { state } = await guard("manage-seeds");
  if (state) return { ...state, values };
  let id: number;
  let result: FormState;
  try {
    const text = await importText(formData);
    id = (await createSeedSet(db, parsed.data.name)).id;
    result = report(await importSeedUrls(db, id, text));
  } catch (e) {
    if (e instanceof ValidationError) return fromValidationError(e, values);
    throw e;
  }
  revalidatePath("/seeds");
  const sp = new URLSearchParams({ imported: result.message ?? "" });
  if (result.details?.length) sp.set("invalid", result.details.slice(0, 30).join("\n"));
  redirect(`/seeds/${id}?${sp}`);
}

const idSchema = z.object({ id: z.coerce.number().int().positive() });

/** Import more URLs into a set; the report lists invalid lines. */
export async function importSeedsAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = idSchema.safeParse(values);
  if (!parsed.success) return invalid(parsed.error, values);
  const { state } = await guard("manage-seeds");
  if (state) return { ...state, values };
  try {
    const text = await importText(formData);
    if (!text.trim()) return { errors: { urls: ["Paste URLs or choose a file"] }, message: "Nothing to import.", values };
    const r = report(await importSeedUrls(db, parsed.data.id, text));
    revalidatePath(`/seeds/${parsed.data.id}`);
    return r;
  } catch (e) {
    if (e instanceof ValidationError) return fromValidationError(e, values);
    throw e;
  }
}

export async function removeSeedUrlAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = z.object({ id: z.coerce.number().int().positive(), urlId: z.coerce.number().int().positive() }).safeParse(formValues(formData));
  if (!parsed.success) return invalid(parsed.error, {});
  const { state } = await guard("manage-seeds");
  if (state) return state;
  await removeSeedUrl(db, parsed.data.id, parsed.data.urlId);
  revalidatePath(`/seeds/${parsed.data.id}`);
  return { ok: true };
}

export async function deleteSeedSetAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = z.object({ id: z.coerce.number().int().positive(), confirm: z.literal("delete") }).safeParse(formValues(formData));
  if (!parsed.success) return invalid(parsed.error, {}, "Confirm the deletion");
  const { state } = await guard("manage-seeds");
  if (state) return state;
  await deleteSeedSet(db, parsed.data.id).catch(() => undefined);
  revalidatePath("/seeds");
  redirect("/seeds?deleted=1");
}
