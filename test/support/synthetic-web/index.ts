/**
 * A local synthetic web for topic discovery: several thousand pages on several loopback hosts,
 * for the discovery tests and `npm run bench:harvest`. Plain TypeScript (no test-runner imports).
 *
 * Texts come from the caller, by label: tests pass short texts written for them, the benchmark
 * reads the real corpus at run time (never copied into the repository).
 *
 * @example
 * const model = generateSyntheticWeb({ seed: 7, texts: { 体育: { titles, bodies }, 娱乐: { … } }, sites: 4, farmPages: 50 });
 * const web = await startSyntheticWeb(model);
 * const seeds = [web.homeUrl(0), web.homeUrl(1)];
 * web.labelOf(url);            // the generator's label of a crawled page (the harvest "truth")
 * web.editArticle(3, "新内容");  // a new version: ETag and Last-Modified change
 * web.maxInFlight();           // 0 when every host saw one request at a time
 * await web.close();
 *
 * See model.ts for the shape of the web (sites with a speciality and a URL style, related links
 * with topical locality, off-topic "hot" links, hubs, a link farm).
 */
export {
  generateSyntheticWeb,
  labelSlug,
  type ArticleModel,
  type FarmPageModel,
  type LabelTexts,
  type SiteModel,
  type SyntheticTexts,
  type SyntheticWebModel,
  type SyntheticWebOptions,
  type UrlStyle,
} from "./model";
export { pathOf, urlOf, renderPage, listPages, WEB_EPOCH_MS, type Origins, type PageRef } from "./render";
export { seededRandom, seededShuffle } from "./random";
export { startSyntheticWeb, type SyntheticRequest, type SyntheticServerOptions, type SyntheticWeb } from "./server";
