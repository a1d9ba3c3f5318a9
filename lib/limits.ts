/**
 * Upload limits the dashboard's forms state, and the server-action body limit derived from them
 * (next.config.ts), so that a file the form says it accepts is never cut off by Next.js first.
 */
const MiB = 1024 * 1024;

export const UPLOAD_LIMITS = {
  /** Labelled samples for a topic (JSONL/CSV). */
  samplesBytes: 5 * MiB,
  /** A seed URL list (text file or pasted lines). */
  seedsBytes: 2 * MiB,
} as const;

/** The largest upload plus room for the form's other fields and the multipart framing. */
export const SERVER_ACTION_BODY_LIMIT_BYTES = Math.max(...Object.values(UPLOAD_LIMITS)) + MiB;

/** "5 MB" — how the forms state a limit. */
export function formatLimit(bytes: number): string {
  return `${Math.round(bytes / MiB)} MB`;
}

/** The message for a chosen file over `limit`, or null when it fits (checked in the browser before sending, and again on the server). */
export function fileTooLarge(file: unknown, limit: number): string | null {
  return typeof File !== "undefined" && file instanceof File && file.size > limit ? `The file is larger than ${formatLimit(limit)}; split it` : null;
}

/** The shortest password accepted (lib/auth/password.ts); here so that forms in the browser can state it. */
export const MIN_PASSWORD_LENGTH = 8;
