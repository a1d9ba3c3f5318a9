-- AlterTable
ALTER TABLE "Post" ADD COLUMN "sentiment" TEXT;
ALTER TABLE "Post" ADD COLUMN "sentimentScore" REAL;

-- CreateTable
CREATE TABLE "Incident" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "status" TEXT NOT NULL DEFAULT 'candidate',
    "title" TEXT NOT NULL DEFAULT '',
    "titleLocked" BOOLEAN NOT NULL DEFAULT false,
    "keywords" TEXT NOT NULL DEFAULT '[]',
    "topicId" INTEGER,
    "representativePostId" INTEGER,
    "mergedIntoId" INTEGER,
    "firstSeenAt" DATETIME NOT NULL,
    "lastSeenAt" DATETIME NOT NULL,
    "size" INTEGER NOT NULL DEFAULT 0,
    "threadCount" INTEGER NOT NULL DEFAULT 0,
    "authorCount" INTEGER NOT NULL DEFAULT 0,
    "accountCount" INTEGER NOT NULL DEFAULT 0,
    "platforms" TEXT NOT NULL DEFAULT '[]',
    "platformCount" INTEGER NOT NULL DEFAULT 0,
    "replyCount" INTEGER NOT NULL DEFAULT 0,
    "flaggedCount" INTEGER NOT NULL DEFAULT 0,
    "negativeCount" INTEGER NOT NULL DEFAULT 0,
    "heat" REAL NOT NULL DEFAULT 0,
    "bursting" BOOLEAN NOT NULL DEFAULT false,
    "burstScore" REAL,
    "alertedAt" DATETIME,
    "lastUpdateAt" DATETIME,
    "alertState" TEXT,
    "handledAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Incident_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IncidentPost" (
    "postId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "incidentId" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "score" REAL,
    "matchedPostId" INTEGER,
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "addedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "IncidentPost_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "IncidentPost_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IncidentAction" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "incidentId" INTEGER NOT NULL,
    "userId" INTEGER,
    "kind" TEXT NOT NULL,
    "detail" TEXT NOT NULL DEFAULT '{}',
    "note" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "IncidentAction_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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

