-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "cookieSummary" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "cookies" TEXT,
ADD COLUMN     "cookiesSetAt" TIMESTAMP(3),
ADD COLUMN     "proxy" TEXT,
ADD COLUMN     "proxyDisplay" TEXT,
ADD COLUMN     "robotsPolicy" TEXT NOT NULL DEFAULT 'obey',
ADD COLUMN     "robotsPolicySetAt" TIMESTAMP(3),
ADD COLUMN     "robotsPolicySetBy" TEXT;


-- AlterTable
ALTER TABLE "CrawlRun" ADD COLUMN     "robotsPolicy" TEXT NOT NULL DEFAULT 'obey',
ADD COLUMN     "robotsPolicySetAt" TIMESTAMP(3),
ADD COLUMN     "robotsPolicySetBy" TEXT;
