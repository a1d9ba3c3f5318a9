-- AlterTable
ALTER TABLE "Post" ADD COLUMN     "sentiment" TEXT,
ADD COLUMN     "sentimentScore" DOUBLE PRECISION;

-- CreateTable
CREATE TABLE "Incident" (
    "id" SERIAL NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'candidate',
    "title" TEXT NOT NULL DEFAULT '',
    "titleLocked" BOOLEAN NOT NULL DEFAULT false,
    "keywords" TEXT NOT NULL DEFAULT '[]',
    "topicId" INTEGER,
    "representativePostId" INTEGER,
    "mergedIntoId" INTEGER,
    "firstSeenAt" TIMESTAMP(3) NOT NULL,
    "lastSeenAt" TIMESTAMP(3) NOT NULL,
    "size" INTEGER NOT NULL DEFAULT 0,
    "threadCount" INTEGER NOT NULL DEFAULT 0,
    "authorCount" INTEGER NOT NULL DEFAULT 0,
    "accountCount" INTEGER NOT NULL DEFAULT 0,
    "platforms" TEXT NOT NULL DEFAULT '[]',
    "platformCount" INTEGER NOT NULL DEFAULT 0,
    "replyCount" INTEGER NOT NULL DEFAULT 0,
    "flaggedCount" INTEGER NOT NULL DEFAULT 0,
    "negativeCount" INTEGER NOT NULL DEFAULT 0,
    "heat" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "bursting" BOOLEAN NOT NULL DEFAULT false,
    "burstScore" DOUBLE PRECISION,
    "alertedAt" TIMESTAMP(3),
    "lastUpdateAt" TIMESTAMP(3),
    "alertState" TEXT,
    "handledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Incident_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IncidentPost" (
    "postId" INTEGER NOT NULL,
    "incidentId" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "matchedPostId" INTEGER,
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "addedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IncidentPost_pkey" PRIMARY KEY ("postId")
);

-- CreateTable
CREATE TABLE "IncidentAction" (
    "id" SERIAL NOT NULL,
    "incidentId" INTEGER NOT NULL,
    "userId" INTEGER,
    "kind" TEXT NOT NULL,
    "detail" TEXT NOT NULL DEFAULT '{}',
    "note" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IncidentAction_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Incident_status_heat_idx" ON "Incident"("status", "heat");

-- CreateIndex
CREATE INDEX "Incident_status_lastSeenAt_idx" ON "Incident"("status", "lastSeenAt");

-- CreateIndex
CREATE INDEX "Incident_topicId_lastSeenAt_idx" ON "Incident"("topicId", "lastSeenAt");

-- CreateIndex
CREATE INDEX "Incident_updatedAt_idx" ON "Incident"("updatedAt");

-- CreateIndex
CREATE INDEX "IncidentPost_incidentId_postId_idx" ON "IncidentPost"("incidentId", "postId");

-- CreateIndex
CREATE INDEX "IncidentAction_incidentId_createdAt_idx" ON "IncidentAction"("incidentId", "createdAt");

-- AddForeignKey
ALTER TABLE "Incident" ADD CONSTRAINT "Incident_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IncidentPost" ADD CONSTRAINT "IncidentPost_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IncidentPost" ADD CONSTRAINT "IncidentPost_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IncidentAction" ADD CONSTRAINT "IncidentAction_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;

