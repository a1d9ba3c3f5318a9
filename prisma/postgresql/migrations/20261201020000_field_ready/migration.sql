-- AlterTable
ALTER TABLE "Post" ADD COLUMN     "authorId" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "deletedAt" TIMESTAMP(3),
ADD COLUMN     "incomplete" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "HistoryMark" ADD COLUMN     "resume" TEXT;

-- AlterTable
ALTER TABLE "CrawlRun" ADD COLUMN     "warningCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "warnings" TEXT NOT NULL DEFAULT '[]';


-- CreateIndex
CREATE INDEX "Post_deletedAt_idx" ON "Post"("deletedAt");
