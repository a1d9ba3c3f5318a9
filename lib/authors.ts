/**
 * An author is the platform and the platform's stable id of the person who wrote a post
 * (Post.authorId: the portrait id on Tieba, the uid on Weibo and Discuz!). Names change; the id
 * does not, so an author's page and `posts export --author` go by the id. Posts without an id
 * (the page showed none) belong to no author page.
 *
 * Pure: importable from client components, the CLI and every layer.
 */
import { isPlatform, PLATFORMS, type Platform } from "./platforms";

/** Who an author page is about. */
export interface AuthorKey {
  platform: Platform;
  authorId: string;
}

/** The longest author id taken from a URL or the command line (real ids are far shorter). */
const MAX_AUTHOR_ID = 200;

/**
 * The dashboard path of an author's page, or null when the post has no author id (no page to
 * link to). The id is URL-encoded: Tieba login names may be Chinese or hold `/`.
 */
export function authorPath(platform: string, authorId: string): string | null {
  if (!authorId || !isPlatform(platform)) return null;
  return `/authors/${platform}/${encodeURIComponent(authorId)}`;
}

/**
 * The author key of a page's route segments, or null when the platform is unknown or the id is
 * empty or too long. Next.js hands the segment over still percent-encoded in some versions and
 * decoded in others; an id is decoded only when it still reads as encoded.
 */
export function authorFromRoute(platform: string, rawId: string): AuthorKey | null {
  if (!isPlatform(platform)) return null;
  let authorId = rawId;
  if (/%[0-9a-f]{2}/i.test(rawId)) {
    try {
      authorId = decodeURIComponent(rawId);
    } catch {
      return null;
    }
  }
  return authorId && authorId.length <= MAX_AUTHOR_ID ? { platform, authorId } : null;
}

/**
 * `PLATFORM:ID` as the CLI takes it (`tieba:tb.1.abc`, `weibo:1234567890`), split at the first
 * colon; an id may hold further colons.
 * @throws Error with a one-line reason for a missing colon, an unknown platform or an empty id
 */
export function parseAuthorArg(value: string): AuthorKey {
  const colon = value.indexOf(":");
  const platform = colon < 0 ? "" : value.slice(0, colon);
  const authorId = colon < 0 ? "" : value.slice(colon + 1).trim();
  if (!isPlatform(platform)) throw new Error(`--author must be PLATFORM:ID with PLATFORM one of ${PLATFORMS.join(", ")} (got ${value})`);
  if (!authorId || authorId.length > MAX_AUTHOR_ID) throw new Error(`--author needs the author's id after "${platform}:" (got ${value})`);
  return { platform, authorId };
}
