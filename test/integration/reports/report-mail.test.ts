/**
 * The scheduled report e-mail: the settings (validated), the scheduler's request for a `report` job
 * (one per period and day), and the job run by the real job runner, which makes the PDF and mails
 * it through a real SMTP server on 127.0.0.1 (smtp-server) with the e-mail channel's address policy.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDb, type TestDb } from "../../support/db";
import { seedReportWeek } from "../../support/report-seed";
import { reportCrons, reportScheduleFromEnv } from "@/lib/report-schedule";
import { requestScheduledReport, setReportSender } from "@/crawler/jobs/reports";
import { createJobRunner } from "@/crawler/jobs";
import { sendReportMail } from "@/server/report-mail";
import type { SmtpSettings } from "@/lib/notify/types";
import { decodePart, decodeWords, mailParts } from "../../support/mime";

describe("report schedule settings", () => {
  it("reads recipients and times, with defaults, and refuses a bad value naming the variable", () => {
    expect(reportScheduleFromEnv({})).toBeNull();
    const s = reportScheduleFromEnv({ CAMPUSWATCH_REPORT_EMAIL: "leader@example.edu.cn, office@example.edu.cn" })!;
    expect(s).toEqual({
      recipients: ["leader@example.edu.cn", "office@example.edu.cn"],
      daily: { hour: 8, minute: 0 },
      weekly: { weekday: 1, hour: 8, minute: 30 },
      locale: "zh-CN",
    });
    expect(reportCrons(s)).toEqual({ daily: "0 8 * * *", weekly: "30 8 * * 1" });
    const custom = reportScheduleFromEnv({
      CAMPUSWATCH_REPORT_EMAIL: "a@example.edu.cn",
      CAMPUSWATCH_REPORT_DAILY: "off",
      CAMPUSWATCH_REPORT_WEEKLY: "Fri 17:05",
      CAMPUSWATCH_REPORT_LOCALE: "en",
    })!;
    expect(reportCrons(custom)).toEqual({ daily: null, weekly: "5 17 * * 5" });
    expect(custom.locale).toBe("en");
    const bad: [Record<string, string>, RegExp][] = [
      [{ CAMPUSWATCH_REPORT_EMAIL: "leader@example.edu.cn,not-an-address" }, /CAMPUSWATCH_REPORT_EMAIL: "not-an-address" is not an e-mail address/],
      [{ CAMPUSWATCH_REPORT_DAILY: "25:00" }, /CAMPUSWATCH_REPORT_DAILY must be a time HH:MM/],
      [{ CAMPUSWATCH_REPORT_DAILY: "8am" }, /CAMPUSWATCH_REPORT_DAILY must be a time HH:MM/],
      [{ CAMPUSWATCH_REPORT_WEEKLY: "monday 08:00" }, /CAMPUSWATCH_REPORT_WEEKLY must be a weekday/],
      [{ CAMPUSWATCH_REPORT_WEEKLY: "mon 8:60" }, /CAMPUSWATCH_REPORT_WEEKLY must be a time HH:MM/],
      [{ CAMPUSWATCH_REPORT_LOCALE: "fr" }, /CAMPUSWATCH_REPORT_LOCALE must be zh-CN or en/],
    ];
    for (const [env, message] of bad) expect(() => reportScheduleFromEnv({ CAMPUSWATCH_REPORT_EMAIL: "a@example.edu.cn", ...env })).toThrow(message);
  });
});

describe("scheduled report e-mail", () => {
  let t: TestDb;
  let smtp: SMTPServer;
  let port = 0;
  const mails: { to: string[]; raw: string }[] = [];

  beforeAll(async () => {
    t = await createTestDb();
    await seedReportWeek(t.db);
    smtp = new SMTPServer({
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      size: 10 * 1024 * 1024,
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    setReportSender(null);
  });
  afterAll(async () => {
    await new Promise<void>((r) => smtp.close(() => r()));
    await t.cleanup();
  });

  const settings = (): SmtpSettings => ({ host: "127.0.0.1", port, user: "", pass: "", from: "campuswatch@example.edu.cn" });

  it("the scheduler asks once per period and day; the job mails the PDF report to every recipient", async () => {
    const morning = new Date("2026-12-03T00:00:00Z"); // 08:00 on 12-03 in Beijing
    expect(await requestScheduledReport(t.db, "day", morning)).toBe(true);
    // Asked again within the minute (a second scheduler, a restart): the queued job stands.
    expect(await requestScheduledReport(t.db, "day", morning)).toBe(false);
    const job = await t.db.job.findFirstOrThrow({ where: { kind: "report" } });
    expect(job.key).toBe("report:day:2026-12-02");
    expect(JSON.parse(job.payload)).toEqual({ kind: "report", period: "day", date: "2026-12-02" });

    vi.stubEnv("CAMPUSWATCH_REPORT_EMAIL", "leader@example.edu.cn, office@example.edu.cn");
    vi.stubEnv("CAMPUSWATCH_PUBLIC_URL", "https://cw.example.edu.cn");
    const runner = createJobRunner({ db: t.db });
    // Without the sender (a process started without it) the job fails and says why.
    await runner.run(job.id);
    const failed = await t.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/cannot make reports/);

    setReportSender((db, spec, schedule) => sendReportMail(db, spec, schedule, { smtp: settings(), allowInternal: ["127.0.0.0/8"], backoffMs: () => 5 }));
    expect(await requestScheduledReport(t.db, "day", morning)).toBe(true);
    const again = await t.db.job.findFirstOrThrow({ where: { kind: "report", status: "queued" } });
    await runner.run(again.id);
    const done = await t.db.job.findUniqueOrThrow({ where: { id: again.id } });
    expect(done.error).toBeNull();
    expect(done.status).toBe("done");
    expect(JSON.parse(done.result!)).toMatchObject({ step: "reportSent", values: { recipients: 2 } });
    // Sent: the day is not asked for again.
    expect(await requestScheduledReport(t.db, "day", morning)).toBe(false);

    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.to).toEqual(["leader@example.edu.cn", "office@example.edu.cn"]);
    const parts = mailParts(mail.raw);
    expect(decodeWords(decodePart(mail.raw).header("Subject"))).toBe("CampusWatch 舆情日报 · 2026-12-02 · 全部主题");
    const pdf = parts.find((p) => p.header("Content-Type").startsWith("application/pdf"))!;
    expect(pdf.header("Content-Type")).toBe("application/pdf; name=campuswatch-day-2026-12-02.pdf");
    expect(pdf.body.subarray(0, 5).toString()).toBe("%PDF-");
    // The text part: the headline figures and the hottest incident, in Chinese.
    const text = parts.find((p) => p.header("Content-Type").startsWith("text/plain"))!.text;
    expect(text).toContain("新增预警：5");
    expect(text).toContain("热度最高的事件：二食堂饭菜异物（热度 42.5，微博、贴吧共 6 条）");
    expect(text).toContain("https://cw.example.edu.cn/reports");
  }, 90_000);

  it("an SMTP server on an internal address not allowed is refused by the address policy: the job fails with the reason", async () => {
    vi.stubEnv("CAMPUSWATCH_REPORT_EMAIL", "leader@example.edu.cn");
    vi.stubEnv("CAMPUSWATCH_ALLOW_INTERNAL", "");
    setReportSender((db, spec, schedule) => sendReportMail(db, spec, schedule, { smtp: settings(), backoffMs: () => 5 }));
    expect(await requestScheduledReport(t.db, "week", new Date("2026-12-07T00:30:00Z"))).toBe(true);
    const job = await t.db.job.findFirstOrThrow({ where: { kind: "report", key: "report:week:2026-12-06" } });
    await createJobRunner({ db: t.db }).run(job.id);
    const row = await t.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row.status).toBe("failed");
    expect(row.error).toMatch(/the report e-mail was not sent: .*internal addresses are refused for notifications/);
    expect(mails).toHaveLength(1);
  }, 90_000);
});
