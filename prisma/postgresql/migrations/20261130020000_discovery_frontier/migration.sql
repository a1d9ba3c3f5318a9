-- AlterTable
ALTER TABLE "DiscoveryRun" ADD COLUMN     "note" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "FrontierUrl" ADD COLUMN     "changedAt" TIMESTAMP(3),
ADD COLUMN     "contentLength" INTEGER,
ADD COLUMN     "reason" TEXT,
ADD COLUMN     "relevant" BOOLEAN;

-- AlterTable
ALTER TABLE "CandidateAccount" ADD COLUMN     "crawledPages" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "relevantPages" INTEGER NOT NULL DEFAULT 0;

