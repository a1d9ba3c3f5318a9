-- Written by hand: Prisma would redefine Post and CrawlRun (copy, drop, rename), which drops the
-- post search triggers of 20261130010000_post_search. SQLite adds these columns in place.

-- AlterTable
ALTER TABLE "Post" ADD COLUMN "authorId" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Post" ADD COLUMN "incomplete" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Post" ADD COLUMN "deletedAt" DATETIME;

-- AlterTable
ALTER TABLE "HistoryMark" ADD COLUMN "resume" TEXT;

-- AlterTable
ALTER TABLE "CrawlRun" ADD COLUMN "warningCount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "CrawlRun" ADD COLUMN "warnings" TEXT NOT NULL DEFAULT '[]';

-- CreateIndex
CREATE INDEX "Post_deletedAt_idx" ON "Post"("deletedAt");
