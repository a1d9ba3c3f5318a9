import type { Command } from "commander";
import { action, loadDb, UserInputError } from "./util";

/** The report's output formats, by the --out file's extension. */
const OUT_FORMATS = { ".pdf": "pdf", ".html": "html" } as const;

/** `campuswatch report`: a daily or weekly report (日报/周报) as PDF or HTML. */
export function registerReportCommand(program: Command) {
  program
    .command("report")
    .description("write a daily or weekly report (top incidents, flags, trends) as PDF or HTML")
    .requiredOption("--period <period>", "day | week")
    .option("--date <YYYY-MM-DD>", "last day covered (Asia/Shanghai; a week is the 7 days ending on it); default yesterday")
    .option("--topic <topic>", "only this topic (name or id); default all topics")
    .option("--locale <locale>", "zh-CN | en", "zh-CN")
    .requiredOption("--out <file>", "the file to write: FILE.pdf or FILE.html")
    .action(
      action(async (o: { period: string; date?: string; topic?: string; locale: string; out: string }) => {
        if (o.period !== "day" && o.period !== "week") throw new UserInputError(`--period must be day or week (got ${o.period})`);
        if (o.locale !== "zh-CN" && o.locale !== "en") throw new UserInputError(`--locale must be zh-CN or en (got ${o.locale})`);
        const path = await import("node:path");
        const ext = path.extname(o.out).toLowerCase();
        const format = (OUT_FORMATS as Record<string, "pdf" | "html" | undefined>)[ext];
        if (!format) throw new UserInputError(`--out must name a .pdf or .html file (got ${o.out})`);
        const fs = await import("node:fs");
        const dir = path.dirname(path.resolve(o.out));
        if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UserInputError(`--out: the folder ${dir} does not exist`);
        const { isReportDay } = await import("../../server/reports");
        if (o.date !== undefined && !isReportDay(o.date)) throw new UserInputError(`--date must be a day written YYYY-MM-DD (got ${o.date})`);

        const [db, { makeReport }] = await Promise.all([loadDb(), import("../../server/report-file")]);
        const report = await makeReport(db, { period: o.period, date: o.date, topic: o.topic ?? null, locale: o.locale, format });
        // Written beside the target and renamed: a reader never sees half a report.
        const temp = `${o.out}.${process.pid}.tmp`;
        fs.writeFileSync(temp, report.body);
        fs.renameSync(temp, o.out);
        console.log(`wrote ${report.title} to ${o.out} (${format.toUpperCase()}, ${report.body.length} bytes)`);
      }),
    );
}
