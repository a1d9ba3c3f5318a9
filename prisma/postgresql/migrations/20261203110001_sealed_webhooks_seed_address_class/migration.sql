-- Robot and webhook URLs are sealed (lib/sealed-columns.ts): their masked forms (origin + "…") are kept
-- beside them for the pages. `campuswatch db migrate` seals the plaintext URLs left by older versions
-- and fills these. Seed URLs record their host's address class at import, as accounts do.
-- AlterTable
ALTER TABLE "SeedUrl" ADD COLUMN     "addressClass" TEXT;

-- AlterTable
ALTER TABLE "Topic" ADD COLUMN     "dingtalkWebhookDisplay" TEXT,
ADD COLUMN     "feishuWebhookDisplay" TEXT,
ADD COLUMN     "webhookUrlDisplay" TEXT,
ADD COLUMN     "wecomWebhookDisplay" TEXT;
