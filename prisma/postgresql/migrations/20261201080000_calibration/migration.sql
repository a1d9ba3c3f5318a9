-- Calibrated thresholds (issue 16 item 5): whether a full retrain chooses the topic's threshold on
-- held-out reviews, the precision it should hold, and the curve it was chosen on.
-- AlterTable
ALTER TABLE "Topic" ADD COLUMN     "calibrate" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "targetPrecision" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "TopicEvaluation" ADD COLUMN     "curve" TEXT;
