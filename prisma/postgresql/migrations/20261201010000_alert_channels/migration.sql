-- AlterTable
ALTER TABLE "Topic" ADD COLUMN     "dingtalkSecret" TEXT,
ADD COLUMN     "dingtalkWebhook" TEXT,
ADD COLUMN     "feishuSecret" TEXT,
ADD COLUMN     "feishuWebhook" TEXT,
ADD COLUMN     "webhookSecret" TEXT,
ADD COLUMN     "wecomWebhook" TEXT;

