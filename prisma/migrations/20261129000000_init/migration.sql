-- CreateTable
CREATE TABLE "User" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "username" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'reviewer',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSignInAt" DATETIME
);

-- CreateTable
CREATE TABLE "Account" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "platform" TEXT NOT NULL,
    "entryUrl" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "cron" TEXT NOT NULL DEFAULT '*/30 * * * *',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "fetchMode" TEXT NOT NULL DEFAULT 'auto',
    "backfillDays" INTEGER,
    "backfillPages" INTEGER,
    "recheckDays" INTEGER NOT NULL DEFAULT 0,
    "ocr" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'idle',
    "lastRunAt" DATETIME,
    "nextRunAt" DATETIME,
    "crawlRequestedAt" DATETIME,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "SeedSet" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "SeedUrl" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "seedSetId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    CONSTRAINT "SeedUrl_seedSetId_fkey" FOREIGN KEY ("seedSetId") REFERENCES "SeedSet" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Topic" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "keywords" TEXT NOT NULL DEFAULT '[]',
    "userDict" TEXT NOT NULL DEFAULT '[]',
    "sensitiveWords" TEXT NOT NULL DEFAULT '[]',
    "relevantLabels" TEXT NOT NULL DEFAULT '[]',
    "nbThreshold" REAL NOT NULL DEFAULT 0.5,
    "cosineThreshold" REAL NOT NULL DEFAULT 0.35,
    "model" TEXT,
    "modelVersion" INTEGER NOT NULL DEFAULT 0,
    "trainedAt" DATETIME,
    "evaluation" TEXT,
    "webhookUrl" TEXT,
    "notifyEmail" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "TopicSample" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "topicId" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'upload',
    "postId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TopicSample_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Post" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "accountId" INTEGER NOT NULL,
    "platformId" TEXT NOT NULL,
    "parentId" INTEGER,
    "kind" TEXT NOT NULL DEFAULT 'post',
    "url" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "author" TEXT NOT NULL DEFAULT '',
    "publishedAt" DATETIME NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT NOT NULL DEFAULT '',
    "ocrText" TEXT,
    "sha1" TEXT NOT NULL,
    "listSha1" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "lastReplyAt" DATETIME,
    "replyCount" INTEGER,
    "archivePath" TEXT,
    "firstSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Post_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Post_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Post" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PostVersion" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "postId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT NOT NULL DEFAULT '',
    "sha1" TEXT NOT NULL,
    "seenAt" DATETIME NOT NULL,
    "replacedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PostVersion_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "HistoryMark" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "accountId" INTEGER NOT NULL,
    "scope" TEXT NOT NULL DEFAULT '',
    "newestAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "HistoryMark_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Classification" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "postId" INTEGER NOT NULL,
    "topicId" INTEGER NOT NULL,
    "score" REAL NOT NULL,
    "cosine" REAL NOT NULL DEFAULT 0,
    "label" TEXT NOT NULL,
    "relevant" BOOLEAN NOT NULL,
    "topTerms" TEXT NOT NULL DEFAULT '[]',
    "sensitiveHits" TEXT NOT NULL DEFAULT '[]',
    "modelVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Classification_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Classification_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Flag" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "postId" INTEGER NOT NULL,
    "topicId" INTEGER NOT NULL,
    "reasons" TEXT NOT NULL,
    "score" REAL NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reviewedAt" DATETIME,
    CONSTRAINT "Flag_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Flag_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Review" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "flagId" INTEGER NOT NULL,
    "reviewerId" INTEGER NOT NULL,
    "decision" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Review_flagId_fkey" FOREIGN KEY ("flagId") REFERENCES "Flag" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Review_reviewerId_fkey" FOREIGN KEY ("reviewerId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CrawlRun" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "accountId" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL DEFAULT 'cli',
    "status" TEXT NOT NULL DEFAULT 'running',
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    "pagesList" INTEGER NOT NULL DEFAULT 0,
    "pagesItem" INTEGER NOT NULL DEFAULT 0,
    "pagesOther" INTEGER NOT NULL DEFAULT 0,
    "browserPages" INTEGER NOT NULL DEFAULT 0,
    "bytes" INTEGER NOT NULL DEFAULT 0,
    "newPosts" INTEGER NOT NULL DEFAULT 0,
    "changedPosts" INTEGER NOT NULL DEFAULT 0,
    "unchangedPosts" INTEGER NOT NULL DEFAULT 0,
    "blocks" INTEGER NOT NULL DEFAULT 0,
    "errorCount" INTEGER NOT NULL DEFAULT 0,
    "errors" TEXT NOT NULL DEFAULT '[]',
    "note" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "CrawlRun_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "topicId" INTEGER NOT NULL,
    "crawlRunId" INTEGER,
    "channel" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" DATETIME,
    CONSTRAINT "Notification_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Notification_crawlRunId_fkey" FOREIGN KEY ("crawlRunId") REFERENCES "CrawlRun" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DiscoveryRun" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "topicId" INTEGER NOT NULL,
    "seedSetId" INTEGER,
    "strategy" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "maxPages" INTEGER NOT NULL,
    "options" TEXT NOT NULL DEFAULT '{}',
    "crawled" INTEGER NOT NULL DEFAULT 0,
    "relevant" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "DiscoveryRun_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "DiscoveryRun_seedSetId_fkey" FOREIGN KEY ("seedSetId") REFERENCES "SeedSet" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "FrontierUrl" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'todo',
    "priority" REAL NOT NULL DEFAULT 0,
    "layer" INTEGER NOT NULL DEFAULT 0,
    "seq" INTEGER NOT NULL,
    "anchor" TEXT NOT NULL DEFAULT '',
    "pageType" TEXT,
    "relevance" REAL,
    "etag" TEXT,
    "lastModified" TEXT,
    "checksum" TEXT,
    "fetchedAt" DATETIME,
    CONSTRAINT "FrontierUrl_runId_fkey" FOREIGN KEY ("runId") REFERENCES "DiscoveryRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "HarvestPoint" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER NOT NULL,
    "crawled" INTEGER NOT NULL,
    "relevant" INTEGER NOT NULL,
    CONSTRAINT "HarvestPoint_runId_fkey" FOREIGN KEY ("runId") REFERENCES "DiscoveryRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CandidateAccount" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "score" REAL NOT NULL,
    "adoptedAccountId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CandidateAccount_runId_fkey" FOREIGN KEY ("runId") REFERENCES "DiscoveryRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "User_username_key" ON "User"("username");

-- CreateIndex
CREATE UNIQUE INDEX "Account_entryUrl_key" ON "Account"("entryUrl");

-- CreateIndex
CREATE UNIQUE INDEX "SeedSet_name_key" ON "SeedSet"("name");

-- CreateIndex
CREATE UNIQUE INDEX "SeedUrl_seedSetId_url_key" ON "SeedUrl"("seedSetId", "url");

-- CreateIndex
CREATE UNIQUE INDEX "Topic_name_key" ON "Topic"("name");

-- CreateIndex
CREATE INDEX "TopicSample_topicId_idx" ON "TopicSample"("topicId");

-- CreateIndex
CREATE INDEX "Post_publishedAt_id_idx" ON "Post"("publishedAt", "id");

-- CreateIndex
CREATE INDEX "Post_accountId_publishedAt_idx" ON "Post"("accountId", "publishedAt");

-- CreateIndex
CREATE INDEX "Post_parentId_idx" ON "Post"("parentId");

-- CreateIndex
CREATE UNIQUE INDEX "Post_accountId_platformId_key" ON "Post"("accountId", "platformId");

-- CreateIndex
CREATE UNIQUE INDEX "PostVersion_postId_version_key" ON "PostVersion"("postId", "version");

-- CreateIndex
CREATE UNIQUE INDEX "HistoryMark_accountId_scope_key" ON "HistoryMark"("accountId", "scope");

-- CreateIndex
CREATE INDEX "Classification_topicId_idx" ON "Classification"("topicId");

-- CreateIndex
CREATE UNIQUE INDEX "Classification_postId_topicId_key" ON "Classification"("postId", "topicId");

-- CreateIndex
CREATE INDEX "Flag_status_createdAt_idx" ON "Flag"("status", "createdAt");

-- CreateIndex
CREATE INDEX "Flag_topicId_createdAt_idx" ON "Flag"("topicId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Flag_postId_topicId_key" ON "Flag"("postId", "topicId");

-- CreateIndex
CREATE INDEX "Review_flagId_idx" ON "Review"("flagId");

-- CreateIndex
CREATE INDEX "CrawlRun_accountId_startedAt_idx" ON "CrawlRun"("accountId", "startedAt");

-- CreateIndex
CREATE INDEX "CrawlRun_startedAt_idx" ON "CrawlRun"("startedAt");

-- CreateIndex
CREATE INDEX "Notification_status_idx" ON "Notification"("status");

-- CreateIndex
CREATE INDEX "FrontierUrl_runId_state_priority_idx" ON "FrontierUrl"("runId", "state", "priority");

-- CreateIndex
CREATE UNIQUE INDEX "FrontierUrl_runId_url_key" ON "FrontierUrl"("runId", "url");

-- CreateIndex
CREATE UNIQUE INDEX "HarvestPoint_runId_crawled_key" ON "HarvestPoint"("runId", "crawled");

-- CreateIndex
CREATE UNIQUE INDEX "CandidateAccount_runId_url_key" ON "CandidateAccount"("runId", "url");

