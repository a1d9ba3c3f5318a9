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
import { discuzBoardFromUrl } from "./platforms/discuz-urls";

const WEIBO_HOSTS = ["weibo.com", "weibo.cn"];
const TIEBA_HOSTS = ["baidu.com"];

function onHosts(host: string, roots: string[]): boolean {
  return roots.some((r) => host === r || host.endsWith(`.${r}`));
}

/**
 * The site key of an account's posts, or "" when the entry URL cannot be read (such an account
 * keeps its posts to itself, as before site keys existed).
 * @param platform the account's platform ("blog" | "weibo" | "discuz" | "tieba")
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
  const host = url.hostname.toLowerCase();
  switch (platform) {
    case "weibo":
      return onHosts(host, WEIBO_HOSTS) ? "weibo" : `weibo:${url.origin}`;
    case "tieba":
      return onHosts(host, TIEBA_HOSTS) ? "tieba" : `tieba:${url.origin}`;
    case "discuz":
      return `discuz:${discuzBaseOf(url)}`;
    case "blog":
      url.hash = "";
      return `blog:${url.href}`;
    default:
      return `${platform}:${url.origin}`;
  }
}

/**
 * The directory a Discuz! installation lives in: the board's base when the URL is a board, else
 * the directory of the script (search.php, forum.php, home.php…) — both end with "/". An
 * `archiver/` directory belongs to the installation above it.
 */
function discuzBaseOf(url: URL): string {
  const board = discuzBoardFromUrl(url);
  if (board) return board.base;
  const dir = url.pathname.replace(/[^/]*$/, "").replace(/archiver\/$/, "");
  return url.origin + (dir || "/");
}
