/**
 * Validation messages in the reader's language. lib/ and server/ keep their messages in English —
 * the CLI prints them — and say what went wrong in a form the dashboard can translate: zod issues
 * (a field, a code, a bound, or a code of a {@link CodeBook} in `params`) and
 * {@link ValidationError}s with a `code`. Server actions turn them into translated field errors
 * here, from codes alone: no English text is matched.
 */
import type { z } from "zod";
import { MAX_PASSWORD_BYTES } from "@/lib/auth/password";
import { issueCode, type CodeBook, type IssueCode, type ValidationError } from "@/lib/validation";
import en from "@/messages/en.json";
import type { Messages } from "./messages";

export type ValidationKey = keyof Messages["validation"];
/** A translator of the `validation` namespace (`getTranslations("validation")`). */
export type ValidationTranslate = (key: ValidationKey, values?: Record<string, string | number>) => string;

/** A message key with its values. */
export interface KeyedMessage {
  key: ValidationKey;
  values?: Record<string, string | number>;
}

/** True when `code` names a message of the `validation` namespace. */
export function isValidationKey(code: string | undefined): code is ValidationKey {
  return code !== undefined && Object.hasOwn(en.validation, code);
}

/**
 * The message of one zod issue of the user schemas (lib/users.ts, lib/auth/password.ts, the setup
 * form), by field and issue code; any other issue is "invalid value". Add a case when a converted
 * form validates a new field.
 */
export function issueMessage(issue: z.core.$ZodIssue): KeyedMessage {
  const field = issue.path.map(String).join(".");
  if (issue.code === "invalid_type") return { key: "required" };
  if (field === "username") {
    if (issue.code === "too_small") return { key: "usernameTooShort", values: { min: Number(issue.minimum) } };
    if (issue.code === "too_big") return { key: "usernameTooLong", values: { max: Number(issue.maximum) } };
    if (issue.code === "invalid_format") return { key: "usernameCharacters" };
  }
  if (field === "password") {
    if (issue.code === "too_small") return { key: "passwordTooShort", values: { min: Number(issue.minimum) } };
    // The one refinement of newPasswordSchema: bcrypt's 72-byte limit.
    if (issue.code === "custom") return { key: "passwordTooLong", values: { max: MAX_PASSWORD_BYTES } };
  }
  if (field === "confirm" && issue.code === "custom") return { key: "passwordsDiffer" };
  if (field === "role" && issue.code === "invalid_value") return { key: "roleInvalid" };
  return genericIssueMessage(issue);
}

/**
 * Any other zod issue, said from its code and bounds (the schema's own English words are for the
 * CLI): "at least 3 characters", "at most 500 entries", "not a valid e-mail address"…
 */
export function genericIssueMessage(issue: z.core.$ZodIssue): KeyedMessage {
  switch (issue.code) {
    case "invalid_type":
      return { key: "required" };
    case "too_small":
    case "too_big": {
      const small = issue.code === "too_small";
      const bound = Number(small ? issue.minimum : issue.maximum);
      if (!Number.isFinite(bound)) break;
      if (issue.origin === "string") return { key: small ? "minLength" : "maxLength", values: { n: bound } };
      if (issue.origin === "array" || issue.origin === "set") return { key: small ? "minItems" : "maxItems", values: { n: bound } };
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint")
        return { key: small ? "minNumber" : "maxNumber", values: { n: bound } };
      break;
    }
    case "invalid_format":
      if (issue.format === "email") return { key: "emailInvalid" };
      if (issue.format === "url") return { key: "urlFormatInvalid" };
      break;
    case "invalid_value":
      return { key: "notAnOption" };
    default:
      break;
  }
  return { key: "invalidValue" };
}

/** Translated messages per field ("_" for the form as a whole), as forms show them. */
export function localizeIssues(issues: readonly z.core.$ZodIssue[], t: ValidationTranslate): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const { key, values } = issueMessage(issue);
    (errors[issue.path.map(String).join(".") || "_"] ??= []).push(t(key, values));
  }
  return errors;
}

/**
 * A {@link ValidationError}'s field errors in the reader's language: from its zod issues, or its
 * code. An error with neither keeps its English messages (a module not converted yet).
 */
export function localizeValidationError(e: ValidationError, t: ValidationTranslate): Record<string, string[]> {
  if (e.detail.issues) return localizeIssues(e.detail.issues, t);
  const { code, values } = e.detail;
  if (!isValidationKey(code)) return e.fieldErrors;
  return Object.fromEntries(Object.keys(e.fieldErrors).map((field) => [field, [t(code, values)]]));
}

/**
 * The message of a refusal whose code is one of `book`'s (a zod issue's `params`, or a
 * {@link ValidationError}'s detail), said with `t` (a translator of `book.namespace`); null for
 * any other code or none.
 */
export function codedMessage<C extends string>(
  found: IssueCode | null | undefined,
  book: CodeBook<C>,
  t: (key: C, values?: Record<string, string | number>) => string,
): string | null {
  if (!found || !(book.codes as readonly string[]).includes(found.code)) return null;
  return t(found.code as C, found.values);
}

/** {@link codedMessage} of a zod issue. */
export function codedIssueMessage<C extends string>(
  issue: z.core.$ZodIssue,
  book: CodeBook<C>,
  t: (key: C, values?: Record<string, string | number>) => string,
): string | null {
  return codedMessage(issueCode(issue), book, t);
}
