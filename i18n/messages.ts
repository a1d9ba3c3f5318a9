/**
 * The message catalogues, imported statically (typed, bundled once): per locale, the shared
 * namespaces in messages/<locale>.json plus one file per dashboard area in messages/<locale>/
 * (so that work on one area touches its own files). English is the reference for the message
 * types (i18n/next-intl.d.ts); the Chinese catalogue must have the same shape.
 */
import enBase from "@/messages/en.json";
import zhBase from "@/messages/zh-CN.json";
import en_posts from "@/messages/en/posts.json";
import zh_posts from "@/messages/zh-CN/posts.json";
import en_accounts from "@/messages/en/accounts.json";
import zh_accounts from "@/messages/zh-CN/accounts.json";
import en_runs from "@/messages/en/runs.json";
import zh_runs from "@/messages/zh-CN/runs.json";
import en_workers from "@/messages/en/workers.json";
import zh_workers from "@/messages/zh-CN/workers.json";
import en_topics from "@/messages/en/topics.json";
import zh_topics from "@/messages/zh-CN/topics.json";
import en_charts from "@/messages/en/charts.json";
import zh_charts from "@/messages/zh-CN/charts.json";
import en_seeds from "@/messages/en/seeds.json";
import zh_seeds from "@/messages/zh-CN/seeds.json";
import en_discovery from "@/messages/en/discovery.json";
import zh_discovery from "@/messages/zh-CN/discovery.json";
import en_audit from "@/messages/en/audit.json";
import zh_audit from "@/messages/zh-CN/audit.json";
import en_tokens from "@/messages/en/tokens.json";
import zh_tokens from "@/messages/zh-CN/tokens.json";
import en_incidents from "@/messages/en/incidents.json";
import zh_incidents from "@/messages/zh-CN/incidents.json";
import en_reports from "@/messages/en/reports.json";
import zh_reports from "@/messages/zh-CN/reports.json";
import en_cases from "@/messages/en/cases.json";
import zh_cases from "@/messages/zh-CN/cases.json";
import { CLIENT_NAMESPACES, type Locale } from "./config";

const en = {
  ...enBase,
  posts: en_posts,
  accounts: en_accounts,
  runs: en_runs,
  workers: en_workers,
  topics: en_topics,
  charts: en_charts,
  seeds: en_seeds,
  discovery: en_discovery,
  audit: en_audit,
  tokens: en_tokens,
  incidents: en_incidents,
  reports: en_reports,
  cases: en_cases,
};
export type Messages = typeof en;

const zhCN: Messages = {
  ...zhBase,
  posts: zh_posts,
  accounts: zh_accounts,
  runs: zh_runs,
  workers: zh_workers,
  topics: zh_topics,
  charts: zh_charts,
  seeds: zh_seeds,
  discovery: zh_discovery,
  audit: zh_audit,
  tokens: zh_tokens,
  incidents: zh_incidents,
  reports: zh_reports,
  cases: zh_cases,
};

const CATALOGUES: Readonly<Record<Locale, Messages>> = { "zh-CN": zhCN, en };

/** Every message of `locale`. */
export function messagesFor(locale: Locale): Messages {
  return CATALOGUES[locale];
}

/** Only the namespaces client components use ({@link CLIENT_NAMESPACES}), for NextIntlClientProvider. */
export function clientMessagesFor(locale: Locale): Pick<Messages, (typeof CLIENT_NAMESPACES)[number]> {
  const all = messagesFor(locale);
  return Object.fromEntries(CLIENT_NAMESPACES.map((ns) => [ns, all[ns]])) as Pick<Messages, (typeof CLIENT_NAMESPACES)[number]>;
}
