-- A topic chooses its classifier (issue 16 item 4): nb (the default, what every topic used before),
-- nb-chi2 or nb-nbsvm. Written by hand so that the table is altered, never redefined.
ALTER TABLE "Topic" ADD COLUMN "classifier" TEXT NOT NULL DEFAULT 'nb';
