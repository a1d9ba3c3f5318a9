-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "username" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'reviewer',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSignInAt" TIMESTAMP(3),

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Account" (
    "id" SERIAL NOT NULL,
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
    "lastRunAt" TIMESTAMP(3),
    "nextRunAt" TIMESTAMP(3),
    "crawlRequestedAt" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SeedSet" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SeedSet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SeedUrl" (
    "id" SERIAL NOT NULL,
    "seedSetId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,

    CONSTRAINT "SeedUrl_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Topic" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "keywords" TEXT NOT NULL DEFAULT '[]',
    "userDict" TEXT NOT NULL DEFAULT '[]',
    "sensitiveWords" TEXT NOT NULL DEFAULT '[]',
    "relevantLabels" TEXT NOT NULL DEFAULT '[]',
    "nbThreshold" DOUBLE PRECISION NOT NULL DEFAULT 0.5,
    "cosineThreshold" DOUBLE PRECISION NOT NULL DEFAULT 0.35,
    "model" TEXT,
    "modelVersion" INTEGER NOT NULL DEFAULT 0,
    "trainedAt" TIMESTAMP(3),
    "evaluation" TEXT,
    "webhookUrl" TEXT,
    "notifyEmail" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Topic_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TopicSample" (
    "id" SERIAL NOT NULL,
    "topicId" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'upload',
    "postId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TopicSample_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Post" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "platformId" TEXT NOT NULL,
    "parentId" INTEGER,
    "kind" TEXT NOT NULL DEFAULT 'post',
    "url" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "author" TEXT NOT NULL DEFAULT '',
    "publishedAt" TIMESTAMP(3) NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT NOT NULL DEFAULT '',
    "ocrText" TEXT,
    "sha1" TEXT NOT NULL,
    "listSha1" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "lastReplyAt" TIMESTAMP(3),
    "replyCount" INTEGER,
    "archivePath" TEXT,
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Post_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PostVersion" (
    "id" SERIAL NOT NULL,
    "postId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT NOT NULL DEFAULT '',
    "sha1" TEXT NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,
    "replacedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PostVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HistoryMark" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "scope" TEXT NOT NULL DEFAULT '',
    "newestAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "HistoryMark_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Classification" (
    "id" SERIAL NOT NULL,
    "postId" INTEGER NOT NULL,
    "topicId" INTEGER NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "cosine" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "label" TEXT NOT NULL,
    "relevant" BOOLEAN NOT NULL,
    "topTerms" TEXT NOT NULL DEFAULT '[]',
    "sensitiveHits" TEXT NOT NULL DEFAULT '[]',
    "modelVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Classification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Flag" (
    "id" SERIAL NOT NULL,
    "postId" INTEGER NOT NULL,
    "topicId" INTEGER NOT NULL,
    "reasons" TEXT NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reviewedAt" TIMESTAMP(3),

    CONSTRAINT "Flag_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Review" (
    "id" SERIAL NOT NULL,
    "flagId" INTEGER NOT NULL,
    "reviewerId" INTEGER NOT NULL,
    "decision" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Review_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CrawlRun" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL DEFAULT 'cli',
    "status" TEXT NOT NULL DEFAULT 'running',
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
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

    CONSTRAINT "CrawlRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" SERIAL NOT NULL,
    "topicId" INTEGER NOT NULL,
    "crawlRunId" INTEGER,
    "channel" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMP(3),

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DiscoveryRun" (
    "id" SERIAL NOT NULL,
    "topicId" INTEGER NOT NULL,
    "seedSetId" INTEGER,
    "strategy" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "maxPages" INTEGER NOT NULL,
    "options" TEXT NOT NULL DEFAULT '{}',
    "crawled" INTEGER NOT NULL DEFAULT 0,
    "relevant" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "DiscoveryRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FrontierUrl" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'todo',
    "priority" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "layer" INTEGER NOT NULL DEFAULT 0,
    "seq" INTEGER NOT NULL,
    "anchor" TEXT NOT NULL DEFAULT '',
    "pageType" TEXT,
    "relevance" DOUBLE PRECISION,
    "etag" TEXT,
    "lastModified" TEXT,
    "checksum" TEXT,
    "fetchedAt" TIMESTAMP(3),

    CONSTRAINT "FrontierUrl_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HarvestPoint" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "crawled" INTEGER NOT NULL,
    "relevant" INTEGER NOT NULL,

    CONSTRAINT "HarvestPoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CandidateAccount" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "adoptedAccountId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CandidateAccount_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "SeedUrl" ADD CONSTRAINT "SeedUrl_seedSetId_fkey" FOREIGN KEY ("seedSetId") REFERENCES "SeedSet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TopicSample" ADD CONSTRAINT "TopicSample_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Post" ADD CONSTRAINT "Post_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Post" ADD CONSTRAINT "Post_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Post"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PostVersion" ADD CONSTRAINT "PostVersion_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HistoryMark" ADD CONSTRAINT "HistoryMark_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Classification" ADD CONSTRAINT "Classification_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Classification" ADD CONSTRAINT "Classification_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Flag" ADD CONSTRAINT "Flag_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Flag" ADD CONSTRAINT "Flag_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Review" ADD CONSTRAINT "Review_flagId_fkey" FOREIGN KEY ("flagId") REFERENCES "Flag"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Review" ADD CONSTRAINT "Review_reviewerId_fkey" FOREIGN KEY ("reviewerId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CrawlRun" ADD CONSTRAINT "CrawlRun_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_crawlRunId_fkey" FOREIGN KEY ("crawlRunId") REFERENCES "CrawlRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DiscoveryRun" ADD CONSTRAINT "DiscoveryRun_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DiscoveryRun" ADD CONSTRAINT "DiscoveryRun_seedSetId_fkey" FOREIGN KEY ("seedSetId") REFERENCES "SeedSet"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FrontierUrl" ADD CONSTRAINT "FrontierUrl_runId_fkey" FOREIGN KEY ("runId") REFERENCES "DiscoveryRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HarvestPoint" ADD CONSTRAINT "HarvestPoint_runId_fkey" FOREIGN KEY ("runId") REFERENCES "DiscoveryRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CandidateAccount" ADD CONSTRAINT "CandidateAccount_runId_fkey" FOREIGN KEY ("runId") REFERENCES "DiscoveryRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

