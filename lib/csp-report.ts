/**
 * CSP violation reports (the `report-uri` of lib/security-headers.ts): browsers post them without
 * the session's help, so anybody can — the body is capped, and the log lines they produce are
 * rate-limited, so a flood neither fills memory nor buries the server's log.
 */
import { RateLimiterMemory } from "rate-limiter-flexible";

/** The largest report body read; a real report is well under 2 KB. */
export const CSP_REPORT_MAX_BYTES = 16 * 1024;

/** Report log lines per minute (per dashboard process); the rest are counted and summed up in the next line. */
export const CSP_REPORT_LOG_PER_MINUTE = 20;

/** The fields of a violation worth a log line, each cut short and stripped of control characters. */
export interface CspViolation {
  documentUri: string;
  directive: string;
  blockedUri: string;
  sourceFile: string;
  line: number | null;
}

/** The first `max` bytes' worth of a stream, or null when it is longer (the rest is not read). */
export async function readCapped(body: ReadableStream<Uint8Array> | null, max: number): Promise<string | null> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function field(value: unknown): string {
  // Report fields are attacker-chosen: no control characters (no forged log lines), short.
  return typeof value === "string" ? value.replace(/\p{Cc}/gu, " ").slice(0, 200) : "";
}

/**
 * The violations in a report body: `application/csp-report` (`{"csp-report": {...}}`, report-uri)
 * or `application/reports+json` (an array of `{type: "csp-violation", body: {...}}`, report-to).
 * Anything else yields none.
 */
export function parseCspReport(text: string): CspViolation[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  const bodies: Record<string, unknown>[] = [];
  if (Array.isArray(data)) {
    for (const item of data.slice(0, 20)) {
      if (item && typeof item === "object" && (item as { type?: unknown }).type === "csp-violation") {
        const body = (item as { body?: unknown }).body;
        if (body && typeof body === "object") bodies.push(body as Record<string, unknown>);
      }
    }
  } else if (data && typeof data === "object") {
    const body = (data as Record<string, unknown>)["csp-report"];
    if (body && typeof body === "object") bodies.push(body as Record<string, unknown>);
  }
  return bodies.map((b) => {
    const line = b["line-number"] ?? b.lineNumber;
    return {
      documentUri: field(b["document-uri"] ?? b.documentURL),
      directive: field(b["effective-directive"] ?? b.effectiveDirective ?? b["violated-directive"]),
      blockedUri: field(b["blocked-uri"] ?? b.blockedURL),
      sourceFile: field(b["source-file"] ?? b.sourceFile),
      line: typeof line === "number" && Number.isInteger(line) ? line : null,
    };
  });
}

/** One log line for a violation. */
export function formatViolation(v: CspViolation): string {
  const where = v.sourceFile ? ` at ${v.sourceFile}${v.line === null ? "" : `:${v.line}`}` : "";
  return `CSP violation on ${v.documentUri || "?"}: ${v.directive || "?"} blocked ${v.blockedUri || "?"}${where}`;
}

/**
 * Logs violations, at most {@link CSP_REPORT_LOG_PER_MINUTE} lines a minute; the lines held back
 * are counted and their number is told with the next line that gets through.
 */
export class CspReportLog {
  private readonly limiter = new RateLimiterMemory({ points: CSP_REPORT_LOG_PER_MINUTE, duration: 60 });
  private suppressed = 0;

  constructor(private readonly write: (line: string) => void = (line) => console.warn(line)) {}

  /** Log each violation unless over the rate; resolves to how many lines were written. */
  async log(violations: CspViolation[]): Promise<number> {
    let written = 0;
    for (const v of violations) {
      try {
        await this.limiter.consume("log");
      } catch {
        this.suppressed++;
        continue;
      }
      const held = this.suppressed > 0 ? ` (${this.suppressed} earlier report(s) not logged: rate limit)` : "";
      this.suppressed = 0;
      this.write(formatViolation(v) + held);
      written++;
    }
    return written;
  }
}
