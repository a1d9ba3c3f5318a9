-- Topics learn from every review (issue 16 items 1 and 7): what the model was trained on, which
-- review samples it holds, and an evaluation per full retrain on review samples held out of it.
-- Written by hand so that the tables are altered, never redefined.
ALTER TABLE "Topic" ADD COLUMN "trainUploadSamples" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Topic" ADD COLUMN "trainReviewSamples" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Topic" ADD COLUMN "reviewsLearned" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Topic" ADD COLUMN "reviewsSinceRetrain" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Topic" ADD COLUMN "retrainDue" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Topic" ADD COLUMN "learnedAt" DATETIME;
ALTER TABLE "TopicSample" ADD COLUMN "learnedAt" DATETIME;

CREATE TABLE "TopicEvaluation" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "topicId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "trainSize" INTEGER NOT NULL,
    "reviewSamples" INTEGER NOT NULL,
    "heldOut" INTEGER NOT NULL,
    "precision" REAL,
    "recall" REAL,
    "f1" REAL,
    "threshold" REAL NOT NULL,
    CONSTRAINT "TopicEvaluation_topicId_fkey" FOREIGN KEY ("topicId") REFERENCES "Topic" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "TopicEvaluation_topicId_at_idx" ON "TopicEvaluation"("topicId", "at");
