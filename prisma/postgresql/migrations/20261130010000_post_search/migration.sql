-- PostgreSQL twin of prisma/migrations/20261130010000_post_search (SQLite): the raw SQL that
-- Prisma's schema cannot express. Same tables, same columns, same meaning, so the dashboard's
-- queries read them the same way on both databases.
-- Dates are TIMESTAMP(3) holding UTC; ts + 8 hours formatted as YYYY-MM-DD is the Asia/Shanghai
-- calendar day, the same text SQLite's date(x, '+8 hours') gives.

-- Full-text search over title + text + OCR text: a pg_trgm GIN index on the same body the
-- SQLite FTS5 trigram table holds. Chinese has no spaces, so words are matched as substrings
-- (ILIKE '%word%'), which this index serves for words of any length (two-character words scan
-- more of the index). The function is the one expression both the index and the query use.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE FUNCTION post_search_body(title TEXT, body TEXT, ocr TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT title || chr(10) || body || chr(10) || coalesce(ocr, '') || chr(10) $$;

CREATE INDEX "Post_search_trgm_idx" ON "Post" USING gin (post_search_body("title", "text", "ocrText") gin_trgm_ops);

CREATE FUNCTION shanghai_day(ts TIMESTAMP(3)) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT to_char(ts + interval '8 hours', 'YYYY-MM-DD') $$;

-- Posts per Asia/Shanghai day, account and kind, kept by triggers.
CREATE TABLE "post_day_stats" (
  "day" TEXT NOT NULL,
  "accountId" INTEGER NOT NULL,
  "kind" TEXT NOT NULL,
  "n" INTEGER NOT NULL,
  PRIMARY KEY ("day", "accountId", "kind")
);

CREATE FUNCTION post_day_stats_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "post_day_stats" SET "n" = "n" - 1
    WHERE "day" = shanghai_day(OLD."publishedAt") AND "accountId" = OLD."accountId" AND "kind" = OLD."kind";
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO "post_day_stats"("day", "accountId", "kind", "n")
    VALUES (shanghai_day(NEW."publishedAt"), NEW."accountId", NEW."kind", 1)
    ON CONFLICT("day", "accountId", "kind") DO UPDATE SET "n" = "post_day_stats"."n" + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "post_day_stats_ai" AFTER INSERT ON "Post" FOR EACH ROW EXECUTE FUNCTION post_day_stats_trg();
CREATE TRIGGER "post_day_stats_ad" AFTER DELETE ON "Post" FOR EACH ROW EXECUTE FUNCTION post_day_stats_trg();
CREATE TRIGGER "post_day_stats_au" AFTER UPDATE OF "publishedAt", "accountId", "kind" ON "Post" FOR EACH ROW EXECUTE FUNCTION post_day_stats_trg();

INSERT INTO "post_day_stats"("day", "accountId", "kind", "n")
SELECT shanghai_day("publishedAt"), "accountId", "kind", count(*) FROM "Post" GROUP BY 1, 2, 3;

-- Running crawls on the runs page and the live status poll.
CREATE INDEX "CrawlRun_status_idx" ON "CrawlRun"("status");

-- Flags per day of their post, account, topic and status.
CREATE TABLE "flag_day_stats" (
  "day" TEXT NOT NULL,
  "accountId" INTEGER NOT NULL,
  "topicId" INTEGER NOT NULL,
  "status" TEXT NOT NULL,
  "n" INTEGER NOT NULL,
  PRIMARY KEY ("day", "accountId", "topicId", "status")
);

CREATE FUNCTION flag_day_stats_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "flag_day_stats" s SET "n" = s."n" - 1
    FROM "Post" p
    WHERE p."id" = OLD."postId" AND s."day" = shanghai_day(p."publishedAt") AND s."accountId" = p."accountId"
      AND s."topicId" = OLD."topicId" AND s."status" = OLD."status";
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO "flag_day_stats"("day", "accountId", "topicId", "status", "n")
    SELECT shanghai_day(p."publishedAt"), p."accountId", NEW."topicId", NEW."status", 1 FROM "Post" p WHERE p."id" = NEW."postId"
    ON CONFLICT("day", "accountId", "topicId", "status") DO UPDATE SET "n" = "flag_day_stats"."n" + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "flag_day_stats_ai" AFTER INSERT ON "Flag" FOR EACH ROW EXECUTE FUNCTION flag_day_stats_trg();
CREATE TRIGGER "flag_day_stats_ad" AFTER DELETE ON "Flag" FOR EACH ROW EXECUTE FUNCTION flag_day_stats_trg();
CREATE TRIGGER "flag_day_stats_au" AFTER UPDATE OF "status", "topicId", "postId" ON "Flag" FOR EACH ROW EXECUTE FUNCTION flag_day_stats_trg();

-- When a post is deleted its flags are subtracted before the cascade removes them (the flag
-- trigger then finds no post and does nothing); when a flagged post moves day or account its
-- flags move with it.
CREATE FUNCTION flag_day_stats_post_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND shanghai_day(OLD."publishedAt") = shanghai_day(NEW."publishedAt") AND OLD."accountId" = NEW."accountId" THEN
    RETURN NULL;
  END IF;
  UPDATE "flag_day_stats" s
  SET "n" = s."n" - (SELECT count(*) FROM "Flag" f WHERE f."postId" = OLD."id" AND f."topicId" = s."topicId" AND f."status" = s."status")
  WHERE s."day" = shanghai_day(OLD."publishedAt") AND s."accountId" = OLD."accountId";
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO "flag_day_stats"("day", "accountId", "topicId", "status", "n")
    SELECT shanghai_day(NEW."publishedAt"), NEW."accountId", f."topicId", f."status", count(*) FROM "Flag" f WHERE f."postId" = NEW."id" GROUP BY f."topicId", f."status"
    ON CONFLICT("day", "accountId", "topicId", "status") DO UPDATE SET "n" = "flag_day_stats"."n" + excluded."n";
    RETURN NULL;
  END IF;
  RETURN OLD;
END $$;

CREATE TRIGGER "flag_day_stats_post_bd" BEFORE DELETE ON "Post" FOR EACH ROW EXECUTE FUNCTION flag_day_stats_post_trg();
CREATE TRIGGER "flag_day_stats_post_au" AFTER UPDATE OF "publishedAt", "accountId" ON "Post" FOR EACH ROW EXECUTE FUNCTION flag_day_stats_post_trg();

INSERT INTO "flag_day_stats"("day", "accountId", "topicId", "status", "n")
SELECT shanghai_day(p."publishedAt"), p."accountId", f."topicId", f."status", count(*)
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
  "ms" BIGINT NOT NULL,
  PRIMARY KEY ("day", "accountId")
);

CREATE FUNCTION run_ms(started TIMESTAMP(3), finished TIMESTAMP(3)) RETURNS BIGINT
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT coalesce(round(extract(epoch FROM finished - started) * 1000)::BIGINT, 0) $$;

CREATE FUNCTION run_day_stats_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "run_day_stats" SET
      "runs" = "runs" - 1, "failed" = "failed" - (OLD."status" = 'failed')::INTEGER, "errors" = "errors" - OLD."errorCount",
      "blocks" = "blocks" - OLD."blocks", "pages" = "pages" - (OLD."pagesList" + OLD."pagesItem" + OLD."pagesOther"),
      "newPosts" = "newPosts" - OLD."newPosts", "ms" = "ms" - run_ms(OLD."startedAt", OLD."finishedAt")
    WHERE "day" = shanghai_day(OLD."startedAt") AND "accountId" = OLD."accountId";
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO "run_day_stats"("day", "accountId", "runs", "failed", "errors", "blocks", "pages", "newPosts", "ms")
    VALUES (shanghai_day(NEW."startedAt"), NEW."accountId", 1, (NEW."status" = 'failed')::INTEGER, NEW."errorCount", NEW."blocks",
            NEW."pagesList" + NEW."pagesItem" + NEW."pagesOther", NEW."newPosts", run_ms(NEW."startedAt", NEW."finishedAt"))
    ON CONFLICT("day", "accountId") DO UPDATE SET
      "runs" = "run_day_stats"."runs" + 1, "failed" = "run_day_stats"."failed" + excluded."failed",
      "errors" = "run_day_stats"."errors" + excluded."errors", "blocks" = "run_day_stats"."blocks" + excluded."blocks",
      "pages" = "run_day_stats"."pages" + excluded."pages", "newPosts" = "run_day_stats"."newPosts" + excluded."newPosts",
      "ms" = "run_day_stats"."ms" + excluded."ms";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "run_day_stats_ai" AFTER INSERT ON "CrawlRun" FOR EACH ROW EXECUTE FUNCTION run_day_stats_trg();
CREATE TRIGGER "run_day_stats_ad" AFTER DELETE ON "CrawlRun" FOR EACH ROW EXECUTE FUNCTION run_day_stats_trg();
CREATE TRIGGER "run_day_stats_au" AFTER UPDATE ON "CrawlRun" FOR EACH ROW EXECUTE FUNCTION run_day_stats_trg();

INSERT INTO "run_day_stats"("day", "accountId", "runs", "failed", "errors", "blocks", "pages", "newPosts", "ms")
SELECT shanghai_day("startedAt"), "accountId", count(*), sum(("status" = 'failed')::INTEGER), sum("errorCount"), sum("blocks"),
       sum("pagesList" + "pagesItem" + "pagesOther"), sum("newPosts"), sum(run_ms("startedAt", "finishedAt"))
FROM "CrawlRun" GROUP BY 1, 2;
