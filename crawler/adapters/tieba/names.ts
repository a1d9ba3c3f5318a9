/**
 * Tieba authors: the name the page shows, and the stable id behind it.
 *
 * A Tieba user has up to four names: the login (`user_name`/`un`, may be empty for new users),
 * an old and a new nickname (`user_nickname`, `show_nickname`/`showname`), and whatever the page
 * prints, which is one of those or yet another display name (the real thread capture shows
 * "章景轩" for login "怪物大宝贝", nickname "贴吧用户_5JQP6NR"). Reviewers search for what they
 * saw, so `author` is the printed name; the list cuts long names ("白茗咸鱼...") and draws the
 * emoji of a nickname as an image, and then the full JSON name it starts with is used.
 * Names change; the portrait id (`tb.1.xxxxxxxx.yyyy`, without its `?t=` cache stamp) does not,
 * so it is the `authorId`, then the numeric user id, then the login.
 */

/** Whitespace collapsed and trimmed (names and titles are stored this way). */
export function collapse(text: string | null | undefined): string {
  return (text ?? "").replace(/[\s\u00a0\u3000]+/g, " ").trim();
}

/** A portrait id without its `?t=…` cache stamp (it changes whenever the avatar does). */
export function portraitId(portrait: string | null | undefined): string | undefined {
  const p = collapse(portrait).replace(/[?&].*$/, "");
  return p === "" ? undefined : p;
}

const CUT = /(\.\.\.|…)$/;

/**
 * The name a page shows for a user.
 * @param visible the printed name's text (empty when the page prints none)
 * @param pictured true when part of the printed name is an image (a nickname emoji)
 * @param known names from the page's JSON, most displayable first
 */
export function shownName(visible: string, pictured: boolean, known: readonly (string | null | undefined)[]): string {
  const names = known.map(collapse).filter((n) => n !== "");
  const v = collapse(visible);
  if (v === "") return names[0] ?? "";
  const cut = CUT.test(v);
  if (!cut && !pictured) return v;
  const prefix = v.replace(CUT, "");
  return names.find((n) => n.startsWith(prefix)) ?? (cut ? (names[0] ?? v) : v);
}

/** The stable id of a user: portrait, else numeric user id, else login. */
export function stableId(portrait: unknown, userId: unknown, login: unknown): string | undefined {
  const p = typeof portrait === "string" ? portraitId(portrait) : undefined;
  if (p) return p;
  if (typeof userId === "number" && Number.isFinite(userId) && userId > 0) return String(userId);
  if (typeof userId === "string" && /^\d+$/.test(userId) && userId !== "0") return userId;
  const l = typeof login === "string" ? collapse(login) : "";
  return l === "" ? undefined : l;
}
