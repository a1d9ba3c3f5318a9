-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "listValidators" TEXT;

