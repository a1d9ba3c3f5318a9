-- CreateTable
CREATE TABLE "CrawlWorker" (
    "id" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "startedAt" TIMESTAMP(3) NOT NULL,
    "heartbeatAt" TIMESTAMP(3) NOT NULL,
    "stoppedAt" TIMESTAMP(3),
    "jobsDone" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CrawlWorker_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkerJob" (
    "jobId" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "accountId" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WorkerJob_pkey" PRIMARY KEY ("jobId")
);

-- CreateTable
CREATE TABLE "HostPoliteness" (
    "host" TEXT NOT NULL,
    "lastEndAt" TIMESTAMP(3),
    "holdUntil" TIMESTAMP(3),

    CONSTRAINT "HostPoliteness_pkey" PRIMARY KEY ("host")
);

-- CreateIndex
CREATE INDEX "CrawlWorker_status_heartbeatAt_idx" ON "CrawlWorker"("status", "heartbeatAt");

-- CreateIndex
CREATE INDEX "WorkerJob_workerId_idx" ON "WorkerJob"("workerId");

-- AddForeignKey
ALTER TABLE "WorkerJob" ADD CONSTRAINT "WorkerJob_workerId_fkey" FOREIGN KEY ("workerId") REFERENCES "CrawlWorker"("id") ON DELETE CASCADE ON UPDATE CASCADE;

