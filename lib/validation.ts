/**
 * Input validation shared by the CLI, server actions and the crawler. Everything a user types
 * goes through zod here, and bad input becomes a one-line message naming the field.
 */
import { z } from "zod";
import { CronExpressionParser } from "cron-parser";
import { TIME_ZONE } from "./time";
import { addressClassOf, addressesOf, isMetadataAddress, isMetadataName, stripBrackets, type AddressClass, type Resolver } from "./net/address";

/** Time zone for cron schedules and year-less platform dates (lib/time.ts): all of China is UTC+8. */
export { TIME_ZONE };

/**
 * What lets the dashboard say a {@link ValidationError} in the reader's language. The messages
 * themselves stay English: the CLI prints them.
 */
export interface ValidationErrorDetail {
  /** A stable name of the refusal (a key of the `validation` messages, e.g. "lastAdmin"). */
  code?: string;
  /** The values its message needs. */
  values?: Record<string, string | number>;
  /** The zod issues behind the error, when a schema refused the input. */
  issues?: readonly z.core.$ZodIssue[];
}

/** Invalid input; `fieldErrors` maps each field to its messages (for forms). */
export class ValidationError extends Error {
  override name = "ValidationError";
  constructor(
    message: string,
    readonly fieldErrors: Record<string, string[]>,
    readonly detail: ValidationErrorDetail = {},
  ) {
    super(message);
  }
}

/** Parse `input` with `schema`, or throw a {@link ValidationError} with a readable one-line message. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "_";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  const message = Object.entries(fieldErrors)
    .map(([field, msgs]) => (field === "_" ? msgs.join("; ") : `${field}: ${msgs.join("; ")}`))
    .join("; ");
  throw new ValidationError(message, fieldErrors, { issues: result.error.issues });
}

/** The code of a refusal and the values its message needs, as a zod issue carries them in `params`. */
export interface IssueCode {
  code: string;
  values?: Record<string, string | number>;
}

/**
 * The codes of one form's refusals, each a key of the message namespace `namespace`
 * (messages/*.json): the schema's checks name a code with {@link CodeBook.error}, the dashboard
 * says it from the code (i18n/validation.ts codedMessage), and test/unit/i18n checks that every
 * code of every book has a message in both languages (test/unit/i18n/codes.test.ts). Nothing matches English text.
 */
export interface CodeBook<C extends string> {
  namespace: string;
  codes: readonly C[];
  /**
   * The `error` option of a zod schema, check or refinement: its issue's message is `english`
   * (the CLI prints it) and its `params` are `{ code, values }`.
   */
  error: (code: C, english: string, values?: Record<string, string | number>) => { error: (issue: z.core.$ZodRawIssue) => string };
  /** The `params` of an issue added by hand (`ctx.addIssue({ code: "custom", message, params })`). */
  params: (code: C, values?: Record<string, string | number>) => { code: C; values?: Record<string, string | number> };
}

/** A {@link CodeBook} of `codes`, keys of the message namespace `namespace`. */
export function codeBook<const C extends string>(namespace: string, codes: readonly C[]): CodeBook<C> {
  const book: CodeBook<C> = {
    namespace,
    codes,
    error: (code, english, values) => ({
      // zod calls the error map with the raw issue and copies the issue's fields after it
      // (finalizeIssue), so `params` set here reach the issue (lib/validation's unit test checks
      // this for every kind of check the forms use).
      error: (issue) => {
        (issue as { params?: Record<string, unknown> }).params = { ...(issue as { params?: Record<string, unknown> }).params, ...book.params(code, values) };
        return english;
      },
    }),
    params: (code, values) => (values ? { code, values } : { code }),
  };
  return book;
}

/** The code a zod issue carries ({@link CodeBook}, or a refinement's `params`), or null. */
export function issueCode(issue: z.core.$ZodIssue): IssueCode | null {
  const params = (issue as { params?: { code?: unknown; values?: unknown } }).params;
  if (typeof params?.code !== "string") return null;
  return { code: params.code, values: (params.values ?? undefined) as IssueCode["values"] };
}

/**
 * A refusal the dashboard can say in the reader's language: `code` is a code of a
 * {@link CodeBook} (a key of its messages), `values` what its message needs. The English `message` stays
 * for the CLI.
 */
export interface Problem {
  code: string;
  values: Record<string, string | number>;
  message: string;
}

/** The codes of {@link httpUrl}, {@link urlProblemCode} and {@link cronProblemCode}: keys of the `accounts.validation` messages. */
export const urlCronProblems = codeBook("accounts.validation", [
  "urlRequired",
  "urlInvalid",
  "urlProtocol",
  "urlNoHost",
  "cronFields",
  "cronInvalid",
  "cronRequired",
  "cronMissing",
]);
/** The codes {@link entryUrlProblemCode} adds to {@link urlProblemCode}'s: keys of the `validation` messages. */
export const entryUrlProblems = codeBook("validation", ["urlTooLong", "urlCredentials", "urlMetadataName", "urlMetadataAddress", "urlMetadataResolves"]);

/** Why a URL is refused (code, values and the English message), or null when it is an absolute http(s) URL. */
export function urlProblemCode(value: string): Problem | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { code: "urlInvalid", values: { value: JSON.stringify(value) }, message: `not a valid URL: ${JSON.stringify(value)}` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { code: "urlProtocol", values: { protocol: url.protocol }, message: `only http and https URLs are allowed (got ${url.protocol})` };
  if (!url.hostname) return { code: "urlNoHost", values: {}, message: "URL has no host" };
  return null;
}

/** Why a URL is refused, or null when it is an absolute http(s) URL. */
export function urlProblem(value: string): string | null {
  return urlProblemCode(value)?.message ?? null;
}

/** The longest entry URL (account or seed) accepted: longer is a paste gone wrong, or an attack on logs and indexes. */
export const MAX_ENTRY_URL_LENGTH = 2048;

/**
 * Why a URL cannot be registered as a host to crawl (an account's entry URL), as a
 * {@link Problem}, or null. On top of {@link urlProblemCode}: at most
 * {@link MAX_ENTRY_URL_LENGTH} characters; no `user:password@` (it would be sent to every page
 * and kept in logs; login cookies are the way to sign in); not a link-local or cloud metadata
 * address or name (lib/net/address.ts), which nobody needs to crawl and an attacker would love to.
 * What the host *resolves* to is checked by {@link checkRegisteredHost}.
 */
export function entryUrlProblemCode(value: string): Problem | null {
  const base = urlProblemCode(value);
  if (base) return base;
  const raw = value.trim();
  const url = new URL(raw);
  const length = Math.max(raw.length, url.href.length);
  if (length > MAX_ENTRY_URL_LENGTH)
    return {
      code: "urlTooLong",
      values: { length, max: MAX_ENTRY_URL_LENGTH },
      message: `the URL is ${length} characters long; at most ${MAX_ENTRY_URL_LENGTH} are accepted`,
    };
  if (url.username || url.password)
    return {
      code: "urlCredentials",
      values: {},
      message: "a user name or password in the URL (user:password@) is not accepted: set the account's login cookies instead",
    };
  const host = stripBrackets(url.hostname);
  if (isMetadataName(host)) return { code: "urlMetadataName", values: { host }, message: `${host} is a cloud metadata service: it is never crawled` };
  if (isMetadataAddress(host))
    return { code: "urlMetadataAddress", values: { address: host }, message: `${host} is a link-local or cloud metadata address: it is never crawled` };
  return null;
}

/**
 * Throw the {@link entryUrlProblemCode} refusal of a URL, if any.
 * @throws ValidationError on the `url` field, with the code the dashboard translates
 */
export function refuseEntryUrl(value: string): void {
  const problem = entryUrlProblemCode(value);
  if (problem) throw new ValidationError(`url: ${problem.message}`, { url: [problem.message] }, { code: problem.code, values: problem.values });
}

/**
 * Check an entry URL for registration and find its host's address class: the checks of
 * {@link entryUrlProblemCode}, then the host is resolved and refused when any address is
 * link-local or cloud metadata. Resolves to `public` when every address is public, `internal`
 * otherwise (an intranet board, the demo on loopback: allowed, and trusted there later), or null
 * when the name does not resolve now (the class is then found at the first crawl).
 * @throws ValidationError on the `url` field, with the code the dashboard translates
 */
export async function checkRegisteredHost(value: string, resolve?: Resolver): Promise<AddressClass | null> {
  refuseEntryUrl(value);
  const host = new URL(value.trim()).hostname;
  let addresses;
  try {
    addresses = await addressesOf(host, resolve);
  } catch {
    return null;
  }
  const metadata = addresses.find((a) => isMetadataAddress(a.address));
  if (metadata) {
    const message = `${stripBrackets(host)} resolves to ${metadata.address}, a link-local or cloud metadata address: it is never crawled`;
    throw new ValidationError(
      `url: ${message}`,
      { url: [message] },
      { code: "urlMetadataResolves", values: { host: stripBrackets(host), address: metadata.address } },
    );
  }
  return addresses.length > 0 ? addressClassOf(addresses) : null;
}

/** zod schema of an absolute http(s) URL. */
export const httpUrl = z
  .string()
  .trim()
  .min(1, urlCronProblems.error("urlRequired", "URL is required"))
  .superRefine((v, ctx) => {
    const problem = urlProblemCode(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem.message, params: { code: problem.code, values: problem.values } });
  });

/**
 * Why a cron expression is refused (code, values and the English message), or null when valid.
 * Five fields (minute hour day month weekday) or six with seconds first.
 */
export function cronProblemCode(expr: string): Problem | null {
  const fields = expr.trim().split(/\s+/);
  if (fields.length < 5 || fields.length > 6) {
    const values = { count: fields.length, expr: JSON.stringify(expr) };
    return {
      code: "cronFields",
      values,
      message: `cron expression must have 5 fields (minute hour day month weekday), got ${fields.length}: ${JSON.stringify(expr)}`,
    };
  }
  try {
    CronExpressionParser.parse(expr.trim(), { tz: TIME_ZONE, strict: false });
  } catch (e) {
    const reason = (e as Error).message;
    return { code: "cronInvalid", values: { expr: JSON.stringify(expr), reason }, message: `invalid cron expression ${JSON.stringify(expr)}: ${reason}` };
  }
  return null;
}

/**
 * Why a cron expression is refused, or null when valid. Five fields (minute hour day month
 * weekday) or six with seconds first.
 */
export function cronProblem(expr: string): string | null {
  return cronProblemCode(expr)?.message ?? null;
}

/** zod schema of a cron expression. */
export const cronExpression = z
  .string()
  .trim()
  .min(1, urlCronProblems.error("cronRequired", "cron expression is required"))
  .superRefine((v, ctx) => {
    const problem = cronProblemCode(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem.message, params: { code: problem.code, values: problem.values } });
  });

/** The next `count` run times of a cron expression after `from`, evaluated in Asia/Shanghai. */
export function nextRunTimes(expr: string, count = 5, from = new Date()): Date[] {
  const it = CronExpressionParser.parse(expr.trim(), { tz: TIME_ZONE, currentDate: from });
  const out: Date[] = [];
  for (let i = 0; i < count; i++) out.push(it.next().toDate());
  return out;
}

/** Interval presets offered by the dashboard; `key` names the label in the `accounts.presets` messages. */
export const CRON_PRESETS: readonly { label: string; cron: string; key: "every5" | "every10" | "every30" | "hourly" | "daily" }[] = [
  { label: "Every 5 minutes", cron: "*/5 * * * *", key: "every5" },
  { label: "Every 10 minutes", cron: "*/10 * * * *", key: "every10" },
  { label: "Every 30 minutes", cron: "*/30 * * * *", key: "every30" },
  { label: "Hourly", cron: "0 * * * *", key: "hourly" },
  { label: "Daily", cron: "0 6 * * *", key: "daily" },
];
