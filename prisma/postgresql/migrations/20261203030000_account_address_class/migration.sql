-- Where an account's entry host resolved when it was registered ("public" | "internal"; lib/net/address.ts).
-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "addressClass" TEXT;
