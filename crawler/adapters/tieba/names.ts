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
import type { Cheerio } from "cheerio";
import type { AnyNode } from "domhandler";

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
 * Where a printed name shows a nickname emoji as an image: {@link printedName} puts this
 * character (U+FFFC, OBJECT REPLACEMENT CHARACTER) in its place, and {@link shownName} reads it
 * as "some emoji here". The emoji may sit anywhere ("✨5x70✨", "长白ლ初暖"), not only at the end.
 */
export const EMOJI_MARK = "\uFFFC";

/** The text of a printed name with each image in it (a nickname emoji) marked {@link EMOJI_MARK}. */
export function printedName(link: Cheerio<AnyNode>): string {
  const copy = link.clone();
  copy.find("img").replaceWith(EMOJI_MARK);
  return copy.text();
}

/**
 * The name a page shows for a user: the printed name, or, when the page cut it ("白茗咸鱼...") or
 * drew part of it as images (nickname emoji), the known name it shows — so a list row, a floor and a
 * 楼中楼 give one author one name, with the emoji a person sees.
 * @param visible the printed name's text (empty when the page prints none), images marked
 *   {@link EMOJI_MARK} ({@link printedName})
 * @param pictured true when part of the printed name is an image (also implied by a mark)
 * @param known names from the page's JSON, most displayable first
 */
export function shownName(visible: string, pictured: boolean, known: readonly (string | null | undefined)[]): string {
  const names = known.map(collapse).filter((n) => n !== "");
  const marked = collapse(visible);
  const v = collapse(marked.replaceAll(EMOJI_MARK, ""));
  if (v === "") return names[0] ?? "";
  const cut = CUT.test(v);
  if (!cut && !pictured && !marked.includes(EMOJI_MARK)) return v;
  const shape = marked.replace(CUT, "");
  const pattern = shape.split(EMOJI_MARK).map(escapeRegExp).join(ONE_EMOJI);
  const matches = new RegExp(`^${pattern}${cut || !marked.includes(EMOJI_MARK) ? "" : "$"}`, "su");
  return names.find((n) => matches.test(n)) ?? (cut ? (names[0] ?? v) : v);
}

/**
 * One emoji as text: a character with its marks (variation selectors) and skin-tone modifiers,
 * joined to more by zero-width joiners (👨‍👩‍👧), or a flag's two regional indicators. One image
 * draws one of these; a symbol-like letter (ლ, º) counts too.
 */
const ONE_EMOJI = String.raw`(?:\p{Regional_Indicator}{2}|\P{M}[\p{M}\u{1F3FB}-\u{1F3FF}]*(?:\u200d\P{M}[\p{M}\u{1F3FB}-\u{1F3FF}]*)*)`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
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
