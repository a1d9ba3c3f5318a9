-- Topics learn from every review (issue 16 items 1 and 7): what the model was trained on, which
-- review samples it holds, and an evaluation per full retrain on review samples held out of it.
-- AlterTable
ALTER TABLE "Topic" ADD COLUMN     "learnedAt" TIMESTAMP(3),
ADD COLUMN     "retrainDue" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "reviewsLearned" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reviewsSinceRetrain" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "trainReviewSamples" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "trainUploadSamples" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "TopicSample" ADD COLUMN     "learnedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "TopicEvaluation" (
    "id" SERIAL NOT NULL,
    "topicId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "trainSize" INTEGER NOT NULL,
    "reviewSamples" INTEGER NOT NULL,
    "heldOut" INTEGER NOT NULL,
    "precision" DOUBLE PRECISION,
    "recall" DOUBLE PRECISION,
    "f1" DOUBLE PRECISION,
    "threshold" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "TopicEvaluation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TopicEvaluation_topicId_at_idx" ON "TopicEvaluation"("topicId", "at");

-- AddForeignKey
ALTER TABLE "TopicEvaluation" ADD CONSTRAINT "TopicEvaluation_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic"("id") ON DELETE CASCADE ON UPDATE CASCADE;

