/** What a platform renderer answers; the server turns it into an HTTP response. */
export interface Rendered {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
  /** Encode the body in this charset (Discuz! GBK boards). @default "utf-8" */
  charset?: "utf-8" | "gbk";
}

export const html = (body: string, status = 200): Rendered => ({ status, contentType: "text/html; charset=utf-8", body });
export const json = (value: unknown, status = 200): Rendered => ({ status, contentType: "application/json; charset=utf-8", body: JSON.stringify(value) });
export const notFound = (what = "Not Found"): Rendered => ({
  status: 404,
  contentType: "text/html; charset=utf-8",
  body: `<html><body><h1>404</h1><p>${what}</p></body></html>`,
});

/** Page sizes of the local platforms (the real defaults unless a test asks for smaller). */
export interface PageSizes {
  /** Weibo timeline cards per page. @default 10 */
  weibo: number;
  /** Weibo comments per hotflow page. @default 20 */
  weiboComments: number;
  /** Tieba threads per list page (the adapter assumes 50, like Tieba). @default 50 */
  tieba: number;
  /** Tieba floors per thread page. @default 30 */
  tiebaFloors: number;
  /** Discuz! threads per list page (`tpp`). @default 20 */
  discuz: number;
  /** Discuz! posts per thread page (`ppp`). @default 10 */
  discuzPosts: number;
  /** Discuz! 点评 a floor shows, and per commentmore page (`commentnumber`). @default 5 */
  discuzComments: number;
  /** Blog posts per listing page. @default 10 */
  blog: number;
  /** Items in a blog feed. @default 10 */
  feed: number;
}

export const DEFAULT_PAGE_SIZES: PageSizes = {
  weibo: 10,
  weiboComments: 20,
  tieba: 50,
  tiebaFloors: 30,
  discuz: 20,
  discuzPosts: 10,
  discuzComments: 5,
  blog: 10,
  feed: 10,
};
