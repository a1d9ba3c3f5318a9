-- Robot and webhook URLs are sealed (lib/sealed-columns.ts): their masked forms (origin + "…") are kept
-- beside them for the pages. `campuswatch db migrate` seals the plaintext URLs left by older versions
-- and fills these. Seed URLs record their host's address class at import, as accounts do.
-- AlterTable
ALTER TABLE "SeedUrl" ADD COLUMN "addressClass" TEXT;

-- AlterTable
ALTER TABLE "Topic" ADD COLUMN "dingtalkWebhookDisplay" TEXT;
ALTER TABLE "Topic" ADD COLUMN "feishuWebhookDisplay" TEXT;
ALTER TABLE "Topic" ADD COLUMN "webhookUrlDisplay" TEXT;
ALTER TABLE "Topic" ADD COLUMN "wecomWebhookDisplay" TEXT;
