-- AlterTable
ALTER TABLE "Topic" ADD COLUMN     "alertMinPosts" INTEGER DEFAULT 10,
ADD COLUMN     "alertOnBurst" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "alertOnFlag" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "alertOnSpread" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "alertUpdateMinutes" INTEGER NOT NULL DEFAULT 60,
ADD COLUMN     "dingtalkQuiet" TEXT,
ADD COLUMN     "emailQuiet" TEXT,
ADD COLUMN     "feishuQuiet" TEXT,
ADD COLUMN     "notifyLocale" TEXT NOT NULL DEFAULT 'zh-CN',
ADD COLUMN     "notifyMode" TEXT NOT NULL DEFAULT 'incidents',
ADD COLUMN     "urgent" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "webhookQuiet" TEXT,
ADD COLUMN     "wecomQuiet" TEXT;

-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "incidentId" INTEGER,
ADD COLUMN     "notBefore" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Notification_incidentId_idx" ON "Notification"("incidentId");
