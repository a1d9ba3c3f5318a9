/**
 * What every dashboard form action returns, and the helpers that build it. Actions follow one
 * order: parse with zod → authorize → write → revalidatePath → redirect; on invalid input they
 * return `{ errors, message, values }` so the form shows each error next to its field and keeps
 * what was typed.
 */
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { localizeIssues, localizeValidationError } from "@/i18n/validation";
import { AuthError, authorize, type CurrentUser } from "@/lib/auth/current-user";
import type { Permission } from "@/lib/permissions";
import { ValidationError } from "@/lib/validation";

export interface FormState {
  /** Messages per field name ("_" for the form as a whole). */
  errors?: Record<string, string[]>;
  /** One line for the form (shown in an alert). */
  message?: string;
  /** What was submitted, to refill the fields. */
  values?: Record<string, string>;
  /** Set when the action succeeded without redirecting. */
  ok?: boolean;
  /** Lines of a report (e.g. the bad rows of an upload). */
  details?: string[];
}

/** The submitted text fields (files and repeated names are left to the action). */
export function formValues(formData: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of formData.entries()) {
    if (typeof v === "string" && !k.startsWith("$ACTION")) out[k] = v;
  }
  return out;
}

/** A failed zod parse as form state. */
export function invalid(error: z.ZodError, values: Record<string, string>, message = "Please correct the marked fields."): FormState {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "_";
    (errors[key] ??= []).push(issue.message);
  }
  return { errors, message, values };
}

/** A ValidationError from a query module as form state. */
export function fromValidationError(e: ValidationError, values: Record<string, string>): FormState {
  return { errors: e.fieldErrors, message: "Please correct the marked fields.", values };
}

/**
 * A failed zod parse as form state in the reader's language (i18n/validation.ts translates each
 * issue). The converted forms use this; {@link invalid} stays for the others until they are.
 */
export async function localizedInvalid(error: z.ZodError, values: Record<string, string>): Promise<FormState> {
  const [t, tc] = await Promise.all([getTranslations("validation"), getTranslations("common")]);
  return { errors: localizeIssues(error.issues, t), message: tc("correctFields"), values };
}

/**
 * A ValidationError from a query module as form state in the reader's language; a refusal of the
 * whole form (field "_", e.g. "the last admin") becomes the form's message.
 */
export async function localizedFailure(e: ValidationError, values: Record<string, string>): Promise<FormState> {
  const [t, tc] = await Promise.all([getTranslations("validation"), getTranslations("common")]);
  const errors = localizeValidationError(e, t);
  return { errors, message: errors._?.join(" ") ?? tc("correctFields"), values };
}

/** Check the session and permission: the user, or form state saying why not (in the reader's language). */
export async function guard(permission: Permission): Promise<{ user: CurrentUser; state?: undefined } | { user?: undefined; state: FormState }> {
  try {
    return { user: await authorize(permission) };
  } catch (e) {
    if (e instanceof AuthError) {
      const t = await getTranslations("common");
      if (e.status === 401) return { state: { message: t("sessionEnded") } };
      if (!e.refused) return { state: { message: t("forbidden") } };
      const [roles, permissions] = await Promise.all([getTranslations("roles"), getTranslations("permissions")]);
      return { state: { message: t("notAllowed", { role: roles(e.refused.role), permission: permissions(e.refused.permission) }) } };
    }
    throw e;
  }
}
