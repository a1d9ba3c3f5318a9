-- CreateTable
CREATE TABLE "Job" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 3,
    "requestedBy" INTEGER,
    "dispatchedAt" TIMESTAMP(3),
    "owner" TEXT,
    "heartbeatAt" TIMESTAMP(3),
    "progress" TEXT,
    "result" TEXT,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Job_status_id_idx" ON "Job"("status", "id");

-- CreateIndex
CREATE INDEX "Job_key_status_idx" ON "Job"("key", "status");


-- One queued or running job per key: what makes a second "Train" press, or two dashboards at once,
-- find the job already asked for instead of queueing another (crawler/jobs/requests.ts).
CREATE UNIQUE INDEX "Job_active_key" ON "Job"("key") WHERE "status" IN ('queued', 'running');
