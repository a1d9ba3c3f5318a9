/**
 * Evidence packages (取证包): building them (./build.ts), the screenshots of archived pages
 * (./screenshot.ts, drawn after crawls by ./shots.ts) and the archive files kept for them (./keep.ts).
 * The signed format itself is lib/evidence.
 */
export { buildPostEvidence, buildIncidentEvidence, MAX_PACKAGE_POSTS, type BuildEvidenceOptions, type BuiltEvidence } from "./build";
export {
  ScreenshotRenderer,
  pageForScreenshot,
  pngSize,
  screenshotPathOf,
  SHOT_WIDTH,
  SHOT_MAX_HEIGHT,
  type Screenshot,
  type StoredScreenshot,
} from "./screenshot";
export { drawRunScreenshots, runFlaggedArchivedPosts, type RunShots } from "./shots";
export { evidenceArchiveFiles, KEPT_FLAG_STATUSES, KEPT_INCIDENT_STATUSES } from "./keep";
