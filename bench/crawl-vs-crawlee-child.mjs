// The Crawlee side of `npm run bench:crawl-vs-crawlee`, in its own process so that its peak RSS is
// its own: CheerioCrawler (@crawlee/cheerio) fetches the given URLs at a fixed concurrency and
// parses each page (HTML with cheerio, JSON as JSON), storing nothing. Plain JavaScript (no tsx
// loader), so neither its start-up nor its memory carries the project's TypeScript tooling.
//
//   CRAWLEE_STORAGE_DIR=/tmp/x node bench/crawl-vs-crawlee-child.mjs URLS.json CONCURRENCY
// Prints one JSON line: { pages, failed, seconds } (seconds: crawler.run() only, start-up excluded).
import fs from "node:fs";
import { CheerioCrawler, Configuration } from "@crawlee/cheerio";

const [file, concurrencyArg] = process.argv.slice(2);
const urls = JSON.parse(fs.readFileSync(file, "utf8"));
const concurrency = Number(concurrencyArg ?? 8);

// A fresh storage per run (the parent gives each run its own CRAWLEE_STORAGE_DIR and removes it).
const config = new Configuration({ purgeOnStart: true, persistStorage: false });
let pages = 0;
let failed = 0;
const crawler = new CheerioCrawler(
  {
    // The same number of requests in flight as the project's accounts crawled at once.
    minConcurrency: concurrency,
    maxConcurrency: concurrency,
    maxRequestRetries: 1,
    // Weibo's API answers JSON, blogs have RSS feeds; Discuz! GBK boards are decoded from their declared charset.
    additionalMimeTypes: ["application/json", "application/rss+xml", "application/atom+xml"],
    requestHandler: async ({ $, json, body }) => {
      // Touch the parsed page as a scraper would, so parsing is not skipped.
      if (json) pages += Object.keys(json).length >= 0 ? 1 : 0;
      else if ($) pages += $("a").length >= 0 ? 1 : 0;
      else if (body) pages++;
    },
    failedRequestHandler: async ({ request }, error) => {
      failed++;
      console.error(`failed: ${request.url}: ${error.message}`);
    },
  },
  config,
);

const t0 = performance.now();
// uniqueKey per position: a URL the project fetched twice is fetched twice here too.
await crawler.run(urls.map((url, i) => ({ url, uniqueKey: `${i}:${url}` })));
const seconds = (performance.now() - t0) / 1000;
console.log(JSON.stringify({ pages, failed, seconds }));
