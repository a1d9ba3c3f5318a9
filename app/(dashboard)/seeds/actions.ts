"use server";

import { userActor } from "@/lib/audit";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { entryUrlProblems, urlCronProblems, ValidationError } from "@/lib/validation";
import { fileTooLarge, formatLimit, UPLOAD_LIMITS } from "@/lib/limits";
import { createSeedSet, deleteSeedSet, importSeedUrls, removeSeedUrl, seedSetNameSchema, type SeedLine } from "@/server/seeds";
import { codedMessage } from "@/i18n/validation";
import { formValues, guard, localizedFailure, localizedInvalid, type FormState } from "../_lib/form";

type SeedsDone = Awaited<ReturnType<typeof getTranslations<"seeds.done">>>;
type UrlProblems = Awaited<ReturnType<typeof getTranslations<"accounts.validation">>>;

type EntryProblems = Awaited<ReturnType<typeof getTranslations<"validation">>>;

/** Why a line is not a URL, in the reader's language, from the code lib/ gave it (server/seeds.ts). */
function lineReason(tu: UrlProblems, tv: EntryProblems, line: SeedLine): string {
  return codedMessage(line.problem, urlCronProblems, tu) ?? codedMessage(line.problem, entryUrlProblems, tv) ?? line.reason;
}

/** The text of the import: the uploaded file, else the pasted lines. */
async function importText(formData: FormData): Promise<string> {
  const file = formData.get("file");
  if (file instanceof File && file.size > 0) {
    if (fileTooLarge(file, UPLOAD_LIMITS.seedsBytes)) {
      const t = await getTranslations("seeds.form");
      throw new ValidationError("file: too large", { file: [t("tooLarge", { limit: formatLimit(UPLOAD_LIMITS.seedsBytes) })] });
    }
    return file.text();
  }
  const urls = formData.get("urls");
  return typeof urls === "string" ? urls : "";
}

function report(t: SeedsDone, tu: UrlProblems, tv: EntryProblems, r: Awaited<ReturnType<typeof importSeedUrls>>): FormState {
  const details = r.invalid.slice(0, 100).map((i) => t("line", { line: i.line, text: i.text, reason: lineReason(tu, tv, i) }));
  if (r.invalid.length > 100) details.push(t("more", { count: r.invalid.length - 100 }));
  return {
    ok: true,
    message: t("imported", { added: r.added, already: r.alreadyThere, invalid: r.invalid.length }),
    details,
  };
}

/** The seed set's name, checked with its English messages kept (server/seeds.ts). */
async function nameInvalid(error: z.ZodError, values: Record<string, string>): Promise<FormState> {
  const state = await localizedInvalid(error, values);
  const t = await getTranslations("seeds.done");
  const name = error.issues
    .filter((i) => i.path.join(".") === "name")
    .map((i) => (i.code === "too_big" ? t("nameTooLong", { max: Number(i.maximum) }) : t("nameRequired")));
  return name.length ? { ...state, errors: { ...state.errors, name } } : state;
}

const createSchema = z.object({ name: seedSetNameSchema });

/** Create a named set and import its first URLs (file or pasted lines). */
export async function createSeedSetAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const parsed = createSchema.safeParse(values);
  if (!parsed.success) return nameInvalid(parsed.error, values);
  const { user, state } = await guard("manage-seeds");
  if (state) return { ...state, values };
  const [t, tu, tv] = await Promise.all([getTranslations("seeds.done"), getTranslations("accounts.validation"), getTranslations("validation")]);
  let id: number;
  let result: FormState;
  try {
    const text = await importText(formData);
    id = (await createSeedSet(db, parsed.data.name, userActor(user))).id;
    result = report(t, tu, tv, await importSeedUrls(db, id, text, userActor(user)));
  } catch (e) {
    if (e instanceof ValidationError) return localizedFailure(e, values);
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
  if (!parsed.success) return localizedInvalid(parsed.error, values);
  const { user, state } = await guard("manage-seeds");
  if (state) return { ...state, values };
  const [t, tu, tv] = await Promise.all([getTranslations("seeds.done"), getTranslations("accounts.validation"), getTranslations("validation")]);
  try {
    const text = await importText(formData);
    if (!text.trim()) return { errors: { urls: [t("pasteOrChoose")] }, message: t("nothing"), values };
    const r = report(t, tu, tv, await importSeedUrls(db, parsed.data.id, text, userActor(user)));
    revalidatePath(`/seeds/${parsed.data.id}`);
    return r;
  } catch (e) {
    if (e instanceof ValidationError) return localizedFailure(e, values);
    throw e;
  }
}

export async function removeSeedUrlAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = z.object({ id: z.coerce.number().int().positive(), urlId: z.coerce.number().int().positive() }).safeParse(formValues(formData));
  if (!parsed.success) return localizedInvalid(parsed.error, {});
  const { user, state } = await guard("manage-seeds");
  if (state) return state;
  await removeSeedUrl(db, parsed.data.id, parsed.data.urlId, userActor(user));
  revalidatePath(`/seeds/${parsed.data.id}`);
  return { ok: true };
}

export async function deleteSeedSetAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const parsed = z.object({ id: z.coerce.number().int().positive(), confirm: z.literal("delete") }).safeParse(formValues(formData));
  if (!parsed.success) {
    const t = await getTranslations("seeds.done");
    return { ...(await localizedInvalid(parsed.error, {})), message: t("confirmDeletion") };
  }
  const { user, state } = await guard("manage-seeds");
  if (state) return state;
  await deleteSeedSet(db, parsed.data.id, userActor(user)).catch(() => undefined);
  revalidatePath("/seeds");
  redirect("/seeds?deleted=1");
}
