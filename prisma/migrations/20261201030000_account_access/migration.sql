-- Written by hand (columns added in place; Prisma would redefine the table).

-- AlterTable
ALTER TABLE "Account" ADD COLUMN "cookies" TEXT;
ALTER TABLE "Account" ADD COLUMN "cookieSummary" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "Account" ADD COLUMN "cookiesSetAt" DATETIME;
ALTER TABLE "Account" ADD COLUMN "proxy" TEXT;
ALTER TABLE "Account" ADD COLUMN "proxyDisplay" TEXT;
ALTER TABLE "Account" ADD COLUMN "robotsPolicy" TEXT NOT NULL DEFAULT 'obey';
ALTER TABLE "Account" ADD COLUMN "robotsPolicySetBy" TEXT;
ALTER TABLE "Account" ADD COLUMN "robotsPolicySetAt" DATETIME;

-- AlterTable
ALTER TABLE "CrawlRun" ADD COLUMN "robotsPolicy" TEXT NOT NULL DEFAULT 'obey';
ALTER TABLE "CrawlRun" ADD COLUMN "robotsPolicySetBy" TEXT;
ALTER TABLE "CrawlRun" ADD COLUMN "robotsPolicySetAt" DATETIME;
