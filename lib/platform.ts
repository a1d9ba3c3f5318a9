/**
 * The platforms CampusWatch can monitor. Below the crawler because the configuration of an
 * account (its cookies' domains, lib/cookies) depends on its platform too; the crawler re-exports
 * these from crawler/types.ts.
 */

/** The platforms CampusWatch can monitor. */
export type Platform = "blog" | "weibo" | "discuz" | "tieba";
export const PLATFORMS: readonly Platform[] = ["blog", "weibo", "discuz", "tieba"] as const;
