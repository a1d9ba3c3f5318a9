-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "adaptive" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "adaptiveIntervalS" INTEGER,
ADD COLUMN     "adaptiveReason" TEXT,
ADD COLUMN     "maxIntervalS" INTEGER,
ADD COLUMN     "minIntervalS" INTEGER;
