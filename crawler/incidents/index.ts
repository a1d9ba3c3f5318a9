/**
 * Incidents (事件): the clustering of stored posts into incidents across platforms (issue 32).
 * The entry point of the clustering part of crawler/incidents; the other parts (heat, alerts,
 * review, reports) have their own files in this folder.
 */
export { bcubed, type BCubed } from "./bcubed";
export { IncidentClusterer, type ClusterDecision, type ClusterIndex, type ClusterOptions, type ClusterPost, type JoinReason } from "./clusterer";
export { clusterPending, clusterPosts, refreshIncidentsOf, type ClusterPendingOptions, type ClusterRunOptions, type ClusterRunResult } from "./cluster";
export { promotes, recomputeIncidentFigures, titleFromPost } from "./figures";
export { CLOSED_STATUSES, DbIndex, resolveIncident } from "./index-store";
export { MemoryIndex } from "./memory-index";
export { queueForClustering, queueForClusteringSync } from "./queue";
export { rebuildIncidents, type RebuildOptions, type RebuildResult } from "./rebuild";
export { hamming, simhash, simhashBands, type SimHash } from "./simhash";
export { informative, textFeatures, type TextFeatures } from "./text-features";
