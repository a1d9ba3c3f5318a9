/**
 * Site keys moved below the crawler (lib/site-key.ts): the migration's backfill
 * (lib/post-sources.ts) computes them too, and lib/ never imports the crawler. This path stays
 * for the store.
 */
export { siteKeyOf } from "../lib/site-key";
