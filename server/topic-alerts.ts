/**
 * A topic's incident alert settings in the settings form (crawler/incidents/alerts.ts applies them):
 * what the channels receive (notifyMode), the rules (a flagged post, N posts, a second platform, a
 * burst), the update period, the urgent override, the language of the messages, and quiet hours per
 * channel (lib/notify/quiet.ts). Fields, validation, the columns they write and their form values.
 */
import { z } from "zod";
import { isQuietHours } from "../lib/notify/quiet";
import { topicProblems } from "./topic-problems";

export const NOTIFY_MODES = ["incidents", "flags", "both"] as const;
export const NOTIFY_LOCALES = ["zh-CN", "en"] as const;
/** The channels' quiet-hours columns, in the form's order. */
export const QUIET_FIELDS = ["dingtalkQuiet", "wecomQuiet", "feishuQuiet", "webhookQuiet", "emailQuiet"] as const;

/** A rule's checkbox: on unless the form says "off" (a hidden "off" precedes the box, whose "on" wins) or false. */
const ruleBox = z.preprocess((v) => v === undefined || v === null || v === "on" || v === "true" || v === true, z.boolean()).default(true);

const blankToNull = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? null : v);

const quietField = z.preprocess(
  blankToNull,
  z
    .string()
    .transform((q) => q.replace(/\s+/g, ""))
    .refine(isQuietHours, topicProblems.error("quietHours", "quiet hours look like 22:00-07:30 (Asia/Shanghai)"))
    .nullable()
    .default(null),
);

/** The alert fields of the topic form (spread into server/topic-admin.ts topicFormSchema). */
export const alertFormFields = {
  notifyMode: z
    .string()
    .default("incidents")
    .pipe(z.enum(NOTIFY_MODES, topicProblems.error("notifyMode", `what the channels receive is one of ${NOTIFY_MODES.join(", ")}`))),
  alertOnFlag: ruleBox,
  alertOnSpread: ruleBox,
  alertOnBurst: ruleBox,
  // Left out (the CLI): 10; an empty field: no size rule.
  alertMinPosts: z
    .preprocess(
      blankToNull,
      z.coerce
        .number(topicProblems.error("alertMinPosts", "the post count is a whole number from 2 to 100000"))
        .int(topicProblems.error("alertMinPosts", "the post count is a whole number from 2 to 100000"))
        .min(2, topicProblems.error("alertMinPosts", "the post count is a whole number from 2 to 100000"))
        .max(100_000, topicProblems.error("alertMinPosts", "the post count is a whole number from 2 to 100000"))
        .nullable(),
    )
    .default(10),
  alertUpdateMinutes: z.coerce
    .number(topicProblems.error("alertUpdateMinutes", "the update period is a whole number of minutes from 5 to 10080"))
    .int(topicProblems.error("alertUpdateMinutes", "the update period is a whole number of minutes from 5 to 10080"))
    .min(5, topicProblems.error("alertUpdateMinutes", "the update period is a whole number of minutes from 5 to 10080"))
    .max(10_080, topicProblems.error("alertUpdateMinutes", "the update period is a whole number of minutes from 5 to 10080"))
    .default(60),
  urgent: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()).default(false),
  notifyLocale: z
    .string()
    .default("zh-CN")
    .pipe(z.enum(NOTIFY_LOCALES, topicProblems.error("notifyLocale", `the language is one of ${NOTIFY_LOCALES.join(", ")}`))),
  dingtalkQuiet: quietField,
  wecomQuiet: quietField,
  feishuQuiet: quietField,
  webhookQuiet: quietField,
  emailQuiet: quietField,
};

type AlertForm = z.output<z.ZodObject<typeof alertFormFields>>;

/** The Topic columns of the alert fields. */
export function alertData(f: AlertForm) {
  return {
    notifyMode: f.notifyMode,
    alertOnFlag: f.alertOnFlag,
    alertOnSpread: f.alertOnSpread,
    alertOnBurst: f.alertOnBurst,
    alertMinPosts: f.alertMinPosts,
    alertUpdateMinutes: f.alertUpdateMinutes,
    urgent: f.urgent,
    notifyLocale: f.notifyLocale,
    dingtalkQuiet: f.dingtalkQuiet,
    wecomQuiet: f.wecomQuiet,
    feishuQuiet: f.feishuQuiet,
    webhookQuiet: f.webhookQuiet,
    emailQuiet: f.emailQuiet,
  };
}

/** A stored topic's alert columns (absent in an older caller: the defaults). */
export interface AlertColumns {
  notifyMode?: string;
  alertOnFlag?: boolean;
  alertOnSpread?: boolean;
  alertOnBurst?: boolean;
  alertMinPosts?: number | null;
  alertUpdateMinutes?: number;
  urgent?: boolean;
  notifyLocale?: string;
  dingtalkQuiet?: string | null;
  wecomQuiet?: string | null;
  feishuQuiet?: string | null;
  webhookQuiet?: string | null;
  emailQuiet?: string | null;
}

/** The form values of a stored topic's alert settings. */
export function alertFormValues(t: AlertColumns): Record<string, string> {
  const box = (v: boolean | undefined, dflt: boolean) => ((v ?? dflt) ? "on" : "off");
  return {
    notifyMode: t.notifyMode ?? "incidents",
    alertOnFlag: box(t.alertOnFlag, true),
    alertOnSpread: box(t.alertOnSpread, true),
    alertOnBurst: box(t.alertOnBurst, true),
    alertMinPosts: t.alertMinPosts === undefined ? "10" : t.alertMinPosts === null ? "" : String(t.alertMinPosts),
    alertUpdateMinutes: String(t.alertUpdateMinutes ?? 60),
    urgent: t.urgent ? "on" : "",
    notifyLocale: t.notifyLocale ?? "zh-CN",
    ...Object.fromEntries(QUIET_FIELDS.map((q) => [q, t[q] ?? ""])),
  };
}
