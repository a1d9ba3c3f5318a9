-- CreateTable
CREATE TABLE "IncidentQueue" (
    "postId" INTEGER NOT NULL,
    "queuedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IncidentQueue_pkey" PRIMARY KEY ("postId")
);

-- CreateTable
CREATE TABLE "IncidentDocFreq" (
    "term" TEXT NOT NULL,
    "df" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "IncidentDocFreq_pkey" PRIMARY KEY ("term")
);

-- CreateTable
CREATE TABLE "IncidentTerm" (
    "id" SERIAL NOT NULL,
    "incidentId" INTEGER NOT NULL,
    "term" TEXT NOT NULL,
    "weight" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "IncidentTerm_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IncidentBand" (
    "band" TEXT NOT NULL,
    "postId" INTEGER NOT NULL,
    "incidentId" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IncidentBand_pkey" PRIMARY KEY ("band","postId")
);

-- CreateTable
CREATE TABLE "IncidentVector" (
    "incidentId" INTEGER NOT NULL,
    "norm2" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "mass" DOUBLE PRECISION NOT NULL DEFAULT 0,

    CONSTRAINT "IncidentVector_pkey" PRIMARY KEY ("incidentId")
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

