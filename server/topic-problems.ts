/**
 * The codes of the topic form's refusals (./topic-admin.ts, ./topic-channels.ts): keys of the
 * `topics.validation` messages, which the dashboard says them with (app/(dashboard)/topics/actions.ts).
 * The schemas keep their English words for the CLI.
 */
import { codeBook } from "../lib/validation";

export const topicProblems = codeBook("topics.validation", [
  "nameRequired",
  "atMostChars",
  "wordTooLong",
  "atMostEntries",
  "nbNumber",
  "nbRange",
  "cosineNumber",
  "cosineRange",
  "fullUrl",
  "nameExists",
  "email",
  "dingtalkUrl",
  "wecomUrl",
  "feishuUrl",
  "noSignParams",
  "webhookSecretFormat",
  "dingtalkSecretFormat",
  "feishuSecretFormat",
  "secretNeedsUrl",
  "keywordRule",
  "quietHours",
  "notifyMode",
  "notifyLocale",
  "alertMinPosts",
  "alertUpdateMinutes",
]);
