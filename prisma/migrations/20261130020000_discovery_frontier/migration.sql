-- AlterTable
ALTER TABLE "FrontierUrl" ADD COLUMN "changedAt" DATETIME;
ALTER TABLE "FrontierUrl" ADD COLUMN "contentLength" INTEGER;
ALTER TABLE "FrontierUrl" ADD COLUMN "reason" TEXT;
ALTER TABLE "FrontierUrl" ADD COLUMN "relevant" BOOLEAN;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_DiscoveryRun" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "topicId" INTEGER NOT NULL,
    "seedSetId" INTEGER,
    "strategy" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "maxPages" INTEGER NOT NULL,
    "options" TEXT NOT NULL DEFAULT '{}',
    "crawled" INTEGER NOT NULL DEFAULT 0,
    "relevant" INTEGER NOT NULL DEFAULT 0,
    "note" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "DiscoveryRun_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DiscoveryRun_seedSetId_fkey" FOREIGN KEY ("seedSetId") REFERENCES "SeedSet" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_DiscoveryRun" ("crawled", "createdAt", "finishedAt", "id", "maxPages", "options", "relevant", "seedSetId", "status", "strategy", "topicId") SELECT "crawled", "createdAt", "finishedAt", "id", "maxPages", "options", "relevant", "seedSetId", "status", "strategy", "topicId" FROM "DiscoveryRun";
DROP TABLE "DiscoveryRun";
ALTER TABLE "new_DiscoveryRun" RENAME TO "DiscoveryRun";
CREATE TABLE "new_CandidateAccount" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "score" REAL NOT NULL,
    "relevantPages" INTEGER NOT NULL DEFAULT 0,
    "crawledPages" INTEGER NOT NULL DEFAULT 0,
    "adoptedAccountId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CandidateAccount_runId_fkey" FOREIGN KEY ("runId") REFERENCES "DiscoveryRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_CandidateAccount" ("adoptedAccountId", "createdAt", "id", "name", "platform", "runId", "score", "url") SELECT "adoptedAccountId", "createdAt", "id", "name", "platform", "runId", "score", "url" FROM "CandidateAccount";
DROP TABLE "CandidateAccount";
ALTER TABLE "new_CandidateAccount" RENAME TO "CandidateAccount";
CREATE UNIQUE INDEX "CandidateAccount_runId_url_key" ON "CandidateAccount"("runId", "url");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

