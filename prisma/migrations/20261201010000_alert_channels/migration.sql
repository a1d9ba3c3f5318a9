-- AlterTable
ALTER TABLE "Topic" ADD COLUMN "dingtalkSecret" TEXT;
ALTER TABLE "Topic" ADD COLUMN "dingtalkWebhook" TEXT;
ALTER TABLE "Topic" ADD COLUMN "feishuSecret" TEXT;
ALTER TABLE "Topic" ADD COLUMN "feishuWebhook" TEXT;
ALTER TABLE "Topic" ADD COLUMN "webhookSecret" TEXT;
ALTER TABLE "Topic" ADD COLUMN "wecomWebhook" TEXT;

