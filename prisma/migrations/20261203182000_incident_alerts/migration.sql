-- Incident alerts (crawler/incidents/alerts.ts): per-topic rules and quiet hours per channel.
-- Columns are added (not a redefined table), so that other migrations adding Topic columns keep theirs.
ALTER TABLE "Topic" ADD COLUMN "notifyMode" TEXT NOT NULL DEFAULT 'incidents';
ALTER TABLE "Topic" ADD COLUMN "alertOnFlag" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "Topic" ADD COLUMN "alertOnSpread" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "Topic" ADD COLUMN "alertOnBurst" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "Topic" ADD COLUMN "alertMinPosts" INTEGER DEFAULT 10;
ALTER TABLE "Topic" ADD COLUMN "alertUpdateMinutes" INTEGER NOT NULL DEFAULT 60;
ALTER TABLE "Topic" ADD COLUMN "urgent" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Topic" ADD COLUMN "notifyLocale" TEXT NOT NULL DEFAULT 'zh-CN';
ALTER TABLE "Topic" ADD COLUMN "webhookQuiet" TEXT;
ALTER TABLE "Topic" ADD COLUMN "emailQuiet" TEXT;
ALTER TABLE "Topic" ADD COLUMN "dingtalkQuiet" TEXT;
ALTER TABLE "Topic" ADD COLUMN "wecomQuiet" TEXT;
ALTER TABLE "Topic" ADD COLUMN "feishuQuiet" TEXT;

-- AlterTable
ALTER TABLE "Notification" ADD COLUMN "incidentId" INTEGER;
ALTER TABLE "Notification" ADD COLUMN "notBefore" DATETIME;

-- CreateIndex
CREATE INDEX "Notification_incidentId_idx" ON "Notification"("incidentId");
