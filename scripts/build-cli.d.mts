// Types of scripts/build-cli.mjs (plain JavaScript, so that bin/campuswatch.mjs can run it without a compiler).
import type { Metafile } from "esbuild";

/** Where the build goes: dist/ at the project root. */
export const DIST: string;

/** The compiled entry (`file:` URL) when `outdir` holds a build of exactly the current sources, else null. */
export function cliBuildEntry(outdir?: string): string | null;

/** Build the CLI into `outdir` (default dist/) and write its manifest. */
export function buildCli(options?: { quiet?: boolean; outdir?: string }): Promise<{ entry: string; metafile: Metafile }>;
