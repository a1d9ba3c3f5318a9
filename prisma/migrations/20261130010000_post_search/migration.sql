-- Raw SQL that Prisma's schema cannot express: full-text search over posts, a daily roll-up for
-- the charts, and indexes used only by the dashboard's hand-written queries.
-- Dates are stored by the driver adapter as ISO-8601 text ("2026-11-30T04:05:06.789+00:00"),
-- so date(x, '+8 hours') gives the Asia/Shanghai calendar day.

-- Full-text search over title + text + OCR text of every post and reply.
-- Trigram tokenizer: Chinese has no spaces, so words are matched as substrings. Queries of three
-- or more characters use the index directly; two-character words (most Chinese words) are
-- expanded through post_fts_vocab to the trigrams that start with them (server/search.ts).
-- A trailing newline makes every two-character occurrence the start of some trigram.
-- Contentless with contentless_delete: the text lives once, in "Post".
CREATE VIRTUAL TABLE "post_fts" USING fts5(body, tokenize = 'trigram', content = '', contentless_delete = 1);
CREATE VIRTUAL TABLE "post_fts_vocab" USING fts5vocab("post_fts", 'row');

CREATE TRIGGER "post_fts_ai" AFTER INSERT ON "Post" BEGIN
  INSERT INTO "post_fts"(rowid, body)
  VALUES (new."id", new."title" || char(10) || new."text" || char(10) || coalesce(new."ocrText", '') || char(10));
END;
CREATE TRIGGER "post_fts_au" AFTER UPDATE OF "title", "text", "ocrText" ON "Post" BEGIN
  DELETE FROM "post_fts" WHERE rowid = old."id";
  INSERT INTO "post_fts"(rowid, body)
  VALUES (new."id", new."title" || char(10) || new."text" || char(10) || coalesce(new."ocrText", '') || char(10));
END;
CREATE TRIGGER "post_fts_ad" AFTER DELETE ON "Post" BEGIN
  DELETE FROM "post_fts" WHERE rowid = old."id";
END;
INSERT INTO "post_fts"(rowid, body)
SELECT "id", "title" || char(10) || "text" || char(10) || coalesce("ocrText", '') || char(10) FROM "Post";

-- Posts per Asia/Shanghai day, account and kind, kept by triggers so that a year of charts reads
-- a few thousand rows instead of a million posts.
CREATE TABLE "post_day_stats" (
  "day" TEXT NOT NULL,
  "accountId" INTEGER NOT NULL,
  "kind" TEXT NOT NULL,
  "n" INTEGER NOT NULL,
  PRIMARY KEY ("day", "accountId", "kind")
) WITHOUT ROWID;

CREATE TRIGGER "post_day_stats_ai" AFTER INSERT ON "Post" BEGIN
  INSERT INTO "post_day_stats"("day", "accountId", "kind", "n")
  VALUES (date(new."publishedAt", '+8 hours'), new."accountId", new."kind", 1)
  ON CONFLICT("day", "accountId", "kind") DO UPDATE SET "n" = "n" + 1;
END;
CREATE TRIGGER "post_day_stats_ad" AFTER DELETE ON "Post" BEGIN
  UPDATE "post_day_stats" SET "n" = "n" - 1
  WHERE "day" = date(old."publishedAt", '+8 hours') AND "accountId" = old."accountId" AND "kind" = old."kind";
END;
CREATE TRIGGER "post_day_stats_au" AFTER UPDATE OF "publishedAt", "accountId", "kind" ON "Post" BEGIN
  UPDATE "post_day_stats" SET "n" = "n" - 1
  WHERE "day" = date(old."publishedAt", '+8 hours') AND "accountId" = old."accountId" AND "kind" = old."kind";
  INSERT INTO "post_day_stats"("day", "accountId", "kind", "n")
  VALUES (date(new."publishedAt", '+8 hours'), new."accountId", new."kind", 1)
  ON CONFLICT("day", "accountId", "kind") DO UPDATE SET "n" = "n" + 1;
END;
INSERT INTO "post_day_stats"("day", "accountId", "kind", "n")
SELECT date("publishedAt", '+8 hours'), "accountId", "kind", count(*) FROM "Post" GROUP BY 1, 2, 3;

-- Running crawls on the runs page and the live status poll.
CREATE INDEX "CrawlRun_status_idx" ON "CrawlRun"("status");

-- Flags per day of their post, account, topic and status. A review moves a flag from "open" to
-- "confirmed"/"dismissed" here too. When a post is deleted its flags are subtracted before the
-- cascade removes them (the flag trigger then finds no post and does nothing).
CREATE TABLE "flag_day_stats" (
  "day" TEXT NOT NULL,
  "accountId" INTEGER NOT NULL,
  "topicId" INTEGER NOT NULL,
  "status" TEXT NOT NULL,
  "n" INTEGER NOT NULL,
  PRIMARY KEY ("day", "accountId", "topicId", "status")
) WITHOUT ROWID;

CREATE TRIGGER "flag_day_stats_ai" AFTER INSERT ON "Flag" BEGIN
  INSERT INTO "flag_day_stats"("day", "accountId", "topicId", "status", "n")
  SELECT date(p."publishedAt", '+8 hours'), p."accountId", new."topicId", new."status", 1 FROM "Post" p WHERE p."id" = new."postId"
  ON CONFLICT("day", "accountId", "topicId", "status") DO UPDATE SET "n" = "n" + 1;
END;
CREATE TRIGGER "flag_day_stats_ad" AFTER DELETE ON "Flag" BEGIN
  UPDATE "flag_day_stats" SET "n" = "n" - 1
  WHERE ("day", "accountId") = (SELECT date(p."publishedAt", '+8 hours'), p."accountId" FROM "Post" p WHERE p."id" = old."postId")
    AND "topicId" = old."topicId" AND "status" = old."status";
END;
CREATE TRIGGER "flag_day_stats_au" AFTER UPDATE OF "status", "topicId", "postId" ON "Flag" BEGIN
  UPDATE "flag_day_stats" SET "n" = "n" - 1
  WHERE ("day", "accountId") = (SELECT date(p."publishedAt", '+8 hours'), p."accountId" FROM "Post" p WHERE p."id" = old."postId")
    AND "topicId" = old."topicId" AND "status" = old."status";
  INSERT INTO "flag_day_stats"("day", "accountId", "topicId", "status", "n")
  SELECT date(p."publishedAt", '+8 hours'), p."accountId", new."topicId", new."status", 1 FROM "Post" p WHERE p."id" = new."postId"
  ON CONFLICT("day", "accountId", "topicId", "status") DO UPDATE SET "n" = "n" + 1;
END;
CREATE TRIGGER "flag_day_stats_post_bd" BEFORE DELETE ON "Post" WHEN EXISTS (SELECT 1 FROM "Flag" WHERE "postId" = old."id") BEGIN
  UPDATE "flag_day_stats"
  SET "n" = "n" - (SELECT count(*) FROM "Flag" f WHERE f."postId" = old."id" AND f."topicId" = "flag_day_stats"."topicId" AND f."status" = "flag_day_stats"."status")
  WHERE "day" = date(old."publishedAt", '+8 hours') AND "accountId" = old."accountId";
END;
CREATE TRIGGER "flag_day_stats_post_au" AFTER UPDATE OF "publishedAt", "accountId" ON "Post"
WHEN (date(old."publishedAt", '+8 hours') IS NOT date(new."publishedAt", '+8 hours') OR old."accountId" <> new."accountId")
  AND EXISTS (SELECT 1 FROM "Flag" WHERE "postId" = new."id") BEGIN
  UPDATE "flag_day_stats"
  SET "n" = "n" - (SELECT count(*) FROM "Flag" f WHERE f."postId" = old."id" AND f."topicId" = "flag_day_stats"."topicId" AND f."status" = "flag_day_stats"."status")
  WHERE "day" = date(old."publishedAt", '+8 hours') AND "accountId" = old."accountId";
  INSERT INTO "flag_day_stats"("day", "accountId", "topicId", "status", "n")
  SELECT date(new."publishedAt", '+8 hours'), new."accountId", f."topicId", f."status", count(*) FROM "Flag" f WHERE f."postId" = new."id" GROUP BY f."topicId", f."status"
  ON CONFLICT("day", "accountId", "topicId", "status") DO UPDATE SET "n" = "n" + excluded."n";
END;
INSERT INTO "flag_day_stats"("day", "accountId", "topicId", "status", "n")
SELECT date(p."publishedAt", '+8 hours'), p."accountId", f."topicId", f."status", count(*)
FROM "Flag" f JOIN "Post" p ON p."id" = f."postId" GROUP BY 1, 2, 3, 4;

-- Crawl runs per day of their start and account: every insert, update or delete of a run adds
-- its new figures and subtracts its old ones.
CREATE TABLE "run_day_stats" (
  "day" TEXT NOT NULL,
  "accountId" INTEGER NOT NULL,
  "runs" INTEGER NOT NULL,
  "failed" INTEGER NOT NULL,
  "errors" INTEGER NOT NULL,
  "blocks" INTEGER NOT NULL,
  "pages" INTEGER NOT NULL,
  "newPosts" INTEGER NOT NULL,
  "ms" INTEGER NOT NULL,
  PRIMARY KEY ("day", "accountId")
) WITHOUT ROWID;

CREATE TRIGGER "run_day_stats_ai" AFTER INSERT ON "CrawlRun" BEGIN
  INSERT INTO "run_day_stats"("day", "accountId", "runs", "failed", "errors", "blocks", "pages", "newPosts", "ms")
  VALUES (date(new."startedAt", '+8 hours'), new."accountId", 1, new."status" = 'failed', new."errorCount", new."blocks",
          new."pagesList" + new."pagesItem" + new."pagesOther", new."newPosts",
          coalesce(CAST(round((unixepoch(new."finishedAt", 'subsec') - unixepoch(new."startedAt", 'subsec')) * 1000) AS INTEGER), 0))
  ON CONFLICT("day", "accountId") DO UPDATE SET
    "runs" = "runs" + 1, "failed" = "failed" + excluded."failed", "errors" = "errors" + excluded."errors",
    "blocks" = "blocks" + excluded."blocks", "pages" = "pages" + excluded."pages", "newPosts" = "newPosts" + excluded."newPosts",
    "ms" = "ms" + excluded."ms";
END;
CREATE TRIGGER "run_day_stats_ad" AFTER DELETE ON "CrawlRun" BEGIN
  UPDATE "run_day_stats" SET
    "runs" = "runs" - 1, "failed" = "failed" - (old."status" = 'failed'), "errors" = "errors" - old."errorCount",
    "blocks" = "blocks" - old."blocks", "pages" = "pages" - (old."pagesList" + old."pagesItem" + old."pagesOther"),
    "newPosts" = "newPosts" - old."newPosts",
    "ms" = "ms" - coalesce(CAST(round((unixepoch(old."finishedAt", 'subsec') - unixepoch(old."startedAt", 'subsec')) * 1000) AS INTEGER), 0)
  WHERE "day" = date(old."startedAt", '+8 hours') AND "accountId" = old."accountId";
END;
CREATE TRIGGER "run_day_stats_au" AFTER UPDATE ON "CrawlRun" BEGIN
  UPDATE "run_day_stats" SET
    "runs" = "runs" - 1, "failed" = "failed" - (old."status" = 'failed'), "errors" = "errors" - old."errorCount",
    "blocks" = "blocks" - old."blocks", "pages" = "pages" - (old."pagesList" + old."pagesItem" + old."pagesOther"),
    "newPosts" = "newPosts" - old."newPosts",
    "ms" = "ms" - coalesce(CAST(round((unixepoch(old."finishedAt", 'subsec') - unixepoch(old."startedAt", 'subsec')) * 1000) AS INTEGER), 0)
  WHERE "day" = date(old."startedAt", '+8 hours') AND "accountId" = old."accountId";
  INSERT INTO "run_day_stats"("day", "accountId", "runs", "failed", "errors", "blocks", "pages", "newPosts", "ms")
  VALUES (date(new."startedAt", '+8 hours'), new."accountId", 1, new."status" = 'failed', new."errorCount", new."blocks",
          new."pagesList" + new."pagesItem" + new."pagesOther", new."newPosts",
          coalesce(CAST(round((unixepoch(new."finishedAt", 'subsec') - unixepoch(new."startedAt", 'subsec')) * 1000) AS INTEGER), 0))
  ON CONFLICT("day", "accountId") DO UPDATE SET
    "runs" = "runs" + 1, "failed" = "failed" + excluded."failed", "errors" = "errors" + excluded."errors",
    "blocks" = "blocks" + excluded."blocks", "pages" = "pages" + excluded."pages", "newPosts" = "newPosts" + excluded."newPosts",
    "ms" = "ms" + excluded."ms";
END;
INSERT INTO "run_day_stats"("day", "accountId", "runs", "failed", "errors", "blocks", "pages", "newPosts", "ms")
SELECT date("startedAt", '+8 hours'), "accountId", count(*), sum("status" = 'failed'), sum("errorCount"), sum("blocks"),
       sum("pagesList" + "pagesItem" + "pagesOther"), sum("newPosts"),
       sum(coalesce(CAST(round((unixepoch("finishedAt", 'subsec') - unixepoch("startedAt", 'subsec')) * 1000) AS INTEGER), 0))
FROM "CrawlRun" GROUP BY 1, 2;
