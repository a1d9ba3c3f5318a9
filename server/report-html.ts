/**
 * A report (server/reports.ts) as one self-contained HTML document in the reader's language: inline
 * CSS and inline SVG charts, no script, no external font, image or style sheet, so that Chromium
 * prints it to PDF without any network (server/report-pdf.ts) and a mail client shows it as it is.
 * Every word comes from messages/<locale>/reports.json; crawled text (incident titles, keywords)
 * is escaped.
 */
import { createTranslator } from "next-intl";
import { messagesFor } from "@/i18n/messages";
import type { Locale } from "@/i18n/config";
import { escapeHtml as esc } from "../lib/sanitize";
import { formatTime } from "../lib/time";
import type { ReportBucket, ReportData } from "./reports";

type Translate = ReturnType<typeof reportTranslator>;

/** The `reports` messages of `locale`. */
export function reportTranslator(locale: Locale) {
  return createTranslator({ locale, messages: messagesFor(locale), namespace: "reports" });
}

/** The report's title line, e.g. "CampusWatch 舆情日报 · 2026-12-02 · 全部主题" (also the e-mail subject). */
export function reportTitle(data: ReportData, locale: Locale): string {
  const t = reportTranslator(locale);
  return `${t(`title.${data.period}`)} · ${periodText(t, data)} · ${scopeText(t, data)}`;
}

function periodText(t: Translate, data: ReportData): string {
  return data.period === "day" ? t("periodDay", { day: data.lastDay }) : t("periodWeek", { from: data.firstDay, to: data.lastDay });
}

function scopeText(t: Translate, data: ReportData): string {
  return data.topic ? t("scopeTopic", { name: data.topic.name }) : t("scopeAll");
}

/** Platform ids as the reader's short names ("微博、贴吧"); an unknown id is shown as it is. */
export function platformNames(locale: Locale, ids: readonly string[]): string {
  const names = messagesFor(locale).platforms as Record<string, { short: string } | undefined>;
  return ids.map((id) => names[id]?.short ?? id).join(locale === "en" ? ", " : "、");
}

const NUMBER = { "zh-CN": new Intl.NumberFormat("zh-CN"), en: new Intl.NumberFormat("en") };

/**
 * The whole report as an HTML document.
 * @param options.styleNonce the nonce of the page's Content-Security-Policy, when the dashboard
 *   serves it (its CSP allows a `<style>` element only with the request's nonce)
 */
export function renderReportHtml(data: ReportData, locale: Locale, options: { styleNonce?: string } = {}): string {
  const t = reportTranslator(locale);
  const n = (v: number) => NUMBER[locale].format(v);
  const s = data.summary;
  const summary: [string, number][] = [
    [t("summary.posts"), s.posts],
    [t("summary.newFlags"), s.newFlags],
    [t("summary.confirmedFlags"), s.confirmedFlags],
    [t("summary.dismissedFlags"), s.dismissedFlags],
    [t("summary.openFlags"), s.openFlags],
    [t("summary.newIncidents"), s.newIncidents],
    [t("summary.handledIncidents"), s.handledIncidents],
    [t("summary.burstingIncidents"), s.burstingIncidents],
  ];
  const title = `${t(`title.${data.period}`)}`;
  const hourly = data.period === "day";
  const body = [
    `<header><h1>${esc(title)}</h1><p class="sub">${esc(periodText(t, data))} · ${esc(scopeText(t, data))}</p>`,
    `<p class="gen">${esc(t("generated", { time: formatTime(data.generatedAt) }))}</p></header>`,
    `<section id="summary"><h2>${esc(t("sections.summary"))}</h2><dl class="figures">`,
    ...summary.map(([label, v]) => `<div><dt>${esc(label)}</dt><dd>${n(v)}</dd></div>`),
    `</dl></section>`,
    `<section id="top-incidents"><h2>${esc(t("sections.topIncidents"))}</h2>`,
    incidentTable(t, locale, data, n),
    `</section>`,
    `<section id="trend"><h2>${esc(t("sections.trend"))}</h2>`,
    ...CHARTS.map((c) =>
      barChart(
        `chart-${c.key}`,
        t(hourly ? c.hourly : c.daily),
        data.trend,
        c.key,
        c.colour,
        (v) => t("chart.max", { n: n(v) }),
        (v) => t("chart.total", { n: n(v) }),
      ),
    ),
    `</section>`,
    data.topic ? "" : topicTable(t, data, n),
    `<footer>${esc(t("footer"))}</footer>`,
  ].join("\n");
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><title>${esc(reportTitle(data, locale))}</title>
<style${options.styleNonce ? ` nonce="${esc(options.styleNonce)}"` : ""}>${CSS}</style></head>
<body>
${body}
</body></html>
`;
}

/** The trend's two charts: posts (blue) and flags (red). */
const CHARTS = [
  { key: "posts", hourly: "chart.postsPerHour", daily: "chart.postsPerDay", colour: "#2563eb" },
  { key: "flags", hourly: "chart.flagsPerHour", daily: "chart.flagsPerDay", colour: "#dc2626" },
] as const;

function incidentTable(t: Translate, locale: Locale, data: ReportData, n: (v: number) => string): string {
  if (data.topIncidents.length === 0) return `<p class="none">${esc(t("incidents.none"))}</p>`;
  const head = ["rank", "title", "status", "heat", "platforms", "size", "flagged", "firstSeen", "lastSeen"] as const;
  const rows = data.topIncidents.map((i, k) => {
    const status = (["open", "handled", "candidate", "dismissed", "merged"] as const).find((x) => x === i.status);
    const title = i.title.trim() || t("incidents.untitled", { id: i.id });
    const words = i.keywords.slice(0, 6);
    return (
      `<tr data-incident="${i.id}"><td class="num">${k + 1}</td>` +
      `<td class="title">${esc(title)}${i.bursting ? ` <span class="burst">${esc(t("incidents.bursting"))}</span>` : ""}` +
      (words.length ? `<div class="kw">${esc(t("incidents.keywords", { words: words.join(locale === "en" ? ", " : "、") }))}</div>` : "") +
      `</td><td>${esc(status ? t(`incidents.statuses.${status}`) : i.status)}</td>` +
      `<td class="num">${esc(i.heat.toFixed(1))}</td><td>${esc(platformNames(locale, i.platforms))}</td>` +
      `<td class="num">${n(i.size)}</td><td class="num">${n(i.flaggedCount)}</td>` +
      `<td class="time">${esc(formatTime(i.firstSeenAt))}</td><td class="time">${esc(formatTime(i.lastSeenAt))}</td></tr>`
    );
  });
  const numeric = new Set(["rank", "heat", "size", "flagged"]);
  return `<table class="incidents"><thead><tr>${head.map((h) => `<th${numeric.has(h) ? ' class="num"' : ""}>${esc(t(`incidents.${h}`))}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function topicTable(t: Translate, data: ReportData, n: (v: number) => string): string {
  const head = `<section id="topics"><h2>${esc(t("sections.topics"))}</h2>`;
  if (data.topics.length === 0) return `${head}<p class="none">${esc(t("topics.none"))}</p></section>`;
  const rows = data.topics.map(
    (r) => `<tr><td>${esc(r.name)}</td><td class="num">${n(r.newFlags)}</td><td class="num">${n(r.confirmed)}</td><td class="num">${n(r.dismissed)}</td></tr>`,
  );
  const cols = (["topic", "newFlags", "confirmed", "dismissed"] as const)
    .map((h) => `<th${h === "topic" ? "" : ' class="num"'}>${esc(t(`topics.${h}`))}</th>`)
    .join("");
  return `${head}<table class="topics"><thead><tr>${cols}</tr></thead><tbody>${rows.join("")}</tbody></table></section>`;
}

/** Chart geometry (SVG user units; the chart scales to the page width). */
const W = 680;
const H = 150;
const PAD = { left: 36, right: 8, top: 10, bottom: 24 };

/**
 * One series as an inline SVG bar chart: a bar per bucket with its value above it when non-zero, the
 * bucket's label below (hours "00"…"23" every third hour, days "12-02"), and the series' maximum
 * and total in the caption. No script, no external font: Chromium prints it as it is.
 */
function barChart(
  id: string,
  title: string,
  trend: readonly ReportBucket[],
  key: "posts" | "flags",
  colour: string,
  maxText: (v: number) => string,
  totalText: (v: number) => string,
): string {
  const values = trend.map((b) => b[key]);
  const max = Math.max(0, ...values);
  const total = values.reduce((a, b) => a + b, 0);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, trend.length);
  const barW = Math.max(2, slot * 0.7);
  const hourly = trend.length > 0 && trend[0]!.key.includes("T");
  const parts: string[] = [
    `<line x1="${PAD.left}" y1="${PAD.top + plotH}" x2="${W - PAD.right}" y2="${PAD.top + plotH}" stroke="#9ca3af" stroke-width="1"/>`,
    `<text x="${PAD.left - 4}" y="${PAD.top + 8}" text-anchor="end" class="axis">${max}</text>`,
    `<text x="${PAD.left - 4}" y="${PAD.top + plotH}" text-anchor="end" class="axis">0</text>`,
  ];
  trend.forEach((b, i) => {
    const v = b[key];
    const h = max > 0 ? (v / max) * plotH : 0;
    const x = PAD.left + i * slot + (slot - barW) / 2;
    const y = PAD.top + plotH - h;
    if (v > 0) {
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}" fill="${colour}" data-key="${b.key}" data-value="${v}"/>`,
      );
      if (!hourly || trend.length <= 24)
        parts.push(`<text x="${(x + barW / 2).toFixed(1)}" y="${(y - 2).toFixed(1)}" text-anchor="middle" class="val">${v}</text>`);
    }
    const label = hourly ? b.key.slice(11, 13) : b.key.slice(5);
    if (!hourly || i % 3 === 0)
      parts.push(`<text x="${(PAD.left + i * slot + slot / 2).toFixed(1)}" y="${H - 8}" text-anchor="middle" class="axis">${esc(label)}</text>`);
  });
  return (
    `<figure id="${id}"><figcaption>${esc(title)} <span class="cap">${esc(totalText(total))} · ${esc(maxText(max))}</span></figcaption>` +
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(title)}">${parts.join("")}</svg></figure>`
  );
}

/** Print-first styles: A4, system CJK fonts (installed with Chromium's fonts), tables that do not split rows. */
const CSS = `
@page { size: A4; margin: 14mm 12mm; }
* { box-sizing: border-box; }
body { font-family: "Noto Sans CJK SC", "Noto Serif CJK SC", "WenQuanYi Micro Hei", sans-serif; color: #111827; font-size: 11pt; margin: 0; }
header { border-bottom: 2px solid #1f2937; margin-bottom: 10px; }
h1 { font-size: 20pt; margin: 0 0 4px; }
.sub { font-size: 12pt; margin: 0; }
.gen { color: #6b7280; font-size: 9pt; margin: 2px 0 6px; }
h2 { font-size: 13pt; margin: 14px 0 6px; border-left: 4px solid #2563eb; padding-left: 6px; }
.figures { display: grid; grid-template-columns: repeat(4, 1fr); gap: 6px; margin: 0; }
.figures div { border: 1px solid #e5e7eb; border-radius: 4px; padding: 6px 8px; }
.figures dt { color: #4b5563; font-size: 9pt; }
.figures dd { margin: 2px 0 0; font-size: 16pt; font-weight: bold; }
table { width: 100%; border-collapse: collapse; font-size: 9pt; }
th, td { border-bottom: 1px solid #e5e7eb; padding: 4px 5px; text-align: left; vertical-align: top; }
th { background: #f3f4f6; }
tr { break-inside: avoid; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.time { white-space: nowrap; }
td.title { word-break: break-all; }
.kw { color: #6b7280; font-size: 8pt; }
.burst { color: #b91c1c; border: 1px solid #b91c1c; border-radius: 3px; padding: 0 3px; font-size: 8pt; }
figure { margin: 6px 0 10px; break-inside: avoid; }
figcaption { font-size: 10pt; font-weight: bold; }
.cap { color: #6b7280; font-weight: normal; font-size: 9pt; }
svg text { font-family: inherit; }
svg .axis { font-size: 10px; fill: #4b5563; }
svg .val { font-size: 9px; fill: #111827; }
.none { color: #6b7280; }
footer { margin-top: 14px; color: #6b7280; font-size: 8pt; border-top: 1px solid #e5e7eb; padding-top: 4px; }
`;
