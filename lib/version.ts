/** CampusWatch's version, as the CLI prints it and evidence manifests state it (keep in step with package.json). */
export const CAMPUSWATCH_VERSION = "0.1.0";
