-- CreateTable
CREATE TABLE "CrawlWorker" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "startedAt" DATETIME NOT NULL,
    "heartbeatAt" DATETIME NOT NULL,
    "stoppedAt" DATETIME,
    "jobsDone" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "WorkerJob" (
    "jobId" TEXT NOT NULL PRIMARY KEY,
    "workerId" TEXT NOT NULL,
    "accountId" INTEGER NOT NULL,
    "startedAt" DATETIME NOT NULL,
    CONSTRAINT "WorkerJob_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "CrawlWorker" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "HostPoliteness" (
    "host" TEXT NOT NULL PRIMARY KEY,
    "lastEndAt" DATETIME,
    "holdUntil" DATETIME
);

-- CreateIndex
CREATE INDEX "CrawlWorker_status_heartbeatAt_idx" ON "CrawlWorker"("status", "heartbeatAt");

-- CreateIndex
CREATE INDEX "WorkerJob_workerId_idx" ON "WorkerJob"("workerId");

