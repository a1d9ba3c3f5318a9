/**
 * A topic's incident alert settings as the settings form saves them (server/topic-alerts.ts through
 * server/topics.ts): rules, update period, urgency, language and quiet hours per channel, their
 * validation with the codes the dashboard translates, and the CLI's partial change keeping them.
 * Also the home page's list of what is bursting now (server/bursts.ts).
 */
import { describe, expect, it } from "vitest";
import { changeTopic, createTopic, getTopic, topicToForm, updateTopic } from "../../../server/topics";
import { burstingNow, forgetBursts, topicBurstReport } from "../../../server/bursts";
import { ValidationError } from "../../../lib/validation";
import { CLI_ACTOR } from "../../../lib/audit";
import { testDbs } from "../../support/db";
import { seedPosts } from "../../support/incidents";

const openDb = testDbs();

describe("incident alert settings", () => {
  it("are stored from the form, shown back, validated, and kept by a partial change", async () => {
    const { db } = await openDb();
    const created = await createTopic(db, { name: "安全", enabled: "on" }, CLI_ACTOR);
    // Defaults: incident alerts, every rule on, 10 posts, hourly updates, not urgent, Chinese.
    expect(created).toMatchObject({
      notifyMode: "incidents",
      alertOnFlag: true,
      alertOnSpread: true,
      alertOnBurst: true,
      alertMinPosts: 10,
      alertUpdateMinutes: 60,
      urgent: false,
      notifyLocale: "zh-CN",
      dingtalkQuiet: null,
    });
    await updateTopic(
      db,
      created.id,
      {
        name: "安全",
        enabled: "on",
        notifyMode: "both",
        // The form: a hidden "off" then the box's "on" when checked (the last value wins); unchecked: "off".
        alertOnFlag: "on",
        alertOnSpread: "off",
        alertOnBurst: "off",
        alertMinPosts: "",
        alertUpdateMinutes: "30",
        urgent: "on",
        notifyLocale: "en",
        dingtalkQuiet: "22:00-07:30",
        emailQuiet: " 12:00 - 13:30 ",
      },
      CLI_ACTOR,
    );
    const row = await getTopic(db, created.id);
    expect(row).toMatchObject({
      notifyMode: "both",
      alertOnFlag: true,
      alertOnSpread: false,
      alertOnBurst: false,
      alertMinPosts: null,
      alertUpdateMinutes: 30,
      urgent: true,
      notifyLocale: "en",
      dingtalkQuiet: "22:00-07:30",
      emailQuiet: "12:00-13:30",
      wecomQuiet: null,
    });
    expect(topicToForm(row!)).toMatchObject({ alertOnSpread: "off", alertMinPosts: "", urgent: "on", dingtalkQuiet: "22:00-07:30" });
    // The CLI changes one setting: the alert settings stay.
    await changeTopic(db, created.id, { description: "校园安全" }, CLI_ACTOR);
    expect(await getTopic(db, created.id)).toMatchObject({
      description: "校园安全",
      alertOnSpread: false,
      alertMinPosts: null,
      urgent: true,
      dingtalkQuiet: "22:00-07:30",
    });
    // Refusals name the field and a code the dashboard says in its language; nothing is written.
    for (const [field, value, code] of [
      ["dingtalkQuiet", "22-7", "quietHours"],
      ["alertUpdateMinutes", "1", "alertUpdateMinutes"],
      ["alertMinPosts", "1.5", "alertMinPosts"],
      ["notifyMode", "storm", "notifyMode"],
      ["notifyLocale", "fr", "notifyLocale"],
    ] as const) {
      const e = await updateTopic(db, created.id, { name: "安全", [field]: value }, CLI_ACTOR).catch((x: unknown) => x);
      expect(e, field).toBeInstanceOf(ValidationError);
      const issue = (e as ValidationError).detail.issues?.find((i) => i.path[0] === field);
      expect(issue, field).toBeDefined();
      expect(JSON.stringify(issue)).toContain(code);
    }
    expect(await getTopic(db, created.id)).toMatchObject({ alertUpdateMinutes: 30, notifyMode: "both" });
  });

  it("the home page's list says what is bursting now, with the topic page's series", async () => {
    const { db } = await openDb();
    forgetBursts();
    const topic = await db.topic.create({ data: { name: "考试", keywords: JSON.stringify(["考试"]) } });
    await db.topic.create({ data: { name: "食堂", keywords: JSON.stringify(["食堂"]) } });
    const now = new Date("2026-12-03T02:00:00Z");
    await seedPosts(
      db,
      Array.from({ length: 8 }, (_, i) => ({ publishedAt: new Date(now.getTime() - (i + 1) * 5 * 60_000), text: `考试 泄题 ${i}` })),
    );
    const items = await burstingNow(db, 8, now);
    expect(items.map((s) => [s.topicName, s.keyword, s.recent])).toEqual([["考试", "考试", 8]]);
    const report = await topicBurstReport(db, topic.id, now);
    expect(report?.map((s) => [s.keyword, s.bursting])).toEqual([
      [null, false],
      ["考试", true],
    ]);
    expect(await topicBurstReport(db, 9999, now)).toBeNull();
    forgetBursts();
  });
});
