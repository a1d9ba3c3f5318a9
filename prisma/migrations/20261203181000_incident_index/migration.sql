-- CreateTable
CREATE TABLE "IncidentQueue" (
    "postId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "queuedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "IncidentDocFreq" (
    "term" TEXT NOT NULL PRIMARY KEY,
    "df" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "IncidentTerm" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "incidentId" INTEGER NOT NULL,
    "term" TEXT NOT NULL,
    "weight" REAL NOT NULL
);

-- CreateTable
CREATE TABLE "IncidentBand" (
    "band" TEXT NOT NULL,
    "postId" INTEGER NOT NULL,
    "incidentId" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "at" DATETIME NOT NULL,

    PRIMARY KEY ("band", "postId")
);

-- CreateTable
CREATE TABLE "IncidentVector" (
    "incidentId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "norm2" REAL NOT NULL DEFAULT 0,
    "mass" REAL NOT NULL DEFAULT 0
);

-- CreateIndex
CREATE INDEX "IncidentQueue_queuedAt_postId_idx" ON "IncidentQueue"("queuedAt", "postId");

-- CreateIndex
CREATE INDEX "IncidentTerm_term_id_idx" ON "IncidentTerm"("term", "id");

-- CreateIndex
CREATE UNIQUE INDEX "IncidentTerm_incidentId_term_key" ON "IncidentTerm"("incidentId", "term");

-- CreateIndex
CREATE INDEX "IncidentBand_postId_idx" ON "IncidentBand"("postId");

-- CreateIndex
CREATE INDEX "Post_url_idx" ON "Post"("url");

