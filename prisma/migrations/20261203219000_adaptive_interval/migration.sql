-- AlterTable
ALTER TABLE "Account" ADD COLUMN "adaptive" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Account" ADD COLUMN "minIntervalS" INTEGER;
ALTER TABLE "Account" ADD COLUMN "maxIntervalS" INTEGER;
ALTER TABLE "Account" ADD COLUMN "adaptiveIntervalS" INTEGER;
ALTER TABLE "Account" ADD COLUMN "adaptiveReason" TEXT;
