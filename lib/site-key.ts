/**
 * The site a post belongs to, as a key: the same platform id on the same site is the same post,
 * whichever account (a user, a board, a bar, a keyword watch) reached it.
 *
 * - Weibo on its real hosts (weibo.com, weibo.cn and their subdomains): "weibo" — a mid is
 *   unique across Weibo, so a user's timeline and a search reach the same post.
 * - Tieba on baidu.com: "tieba" — thread and post ids are unique across all bars.
 * - Discuz!: the board's installation (origin + directory, e.g. "https://bbs.x.edu.cn/bbs/") —
 *   a tid is unique within one installation, whatever board (fid) or search page listed it.
 * - A blog: its own entry URL — blogs are not merged across accounts. Post ids are paths, unique
 *   on an origin, but comment ids are numbers per installation, and one origin often hosts many
 *   blogs (a campus blog platform, WordPress multisite: blog.x.edu.cn/alice/, …/bob/) whose
 *   comment 123 are different comments. Keyword watches never search blogs, so nothing is lost.
 * - Anything else (a local copy of a platform on 127.0.0.1 or localhost, a mirror): the
 *   platform and the origin, so test servers and mirrors never merge with the real site.
 *
 * Keys are computed from the account's platform and entry URL, so a search URL of a site gives
 * the key of that site's ordinary entry URLs.
 */
import { isPlatform, platformEntry } from "./platforms";

/**
 * The site key of an account's posts, or "" when the entry URL cannot be read (such an account
 * keeps its posts to itself, as before site keys existed). Each platform's rule is its registry
 * entry's `siteKey` (lib/platforms).
 * @param platform the account's platform (a registry id; another keeps to platform and origin)
 * @param entryUrl the account's entry URL (a listing, a profile or a platform search)
 */
export function siteKeyOf(platform: string, entryUrl: string): string {
  let url: URL;
  try {
    url = new URL(entryUrl);
  } catch {
    return "";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "";
  return isPlatform(platform) ? platformEntry(platform).siteKey(url) : `${platform}:${url.origin}`;
}
