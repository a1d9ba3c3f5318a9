/**
 * The crawler's error classes live in lib/errors.ts, below the crawler, because the address
 * policy (lib/net/address.ts) that notifications share refuses with one of them. Re-exported here
 * so that crawler code keeps importing them from where it always did.
 */
export * from "../lib/errors";
