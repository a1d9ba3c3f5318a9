/**
 * Topics against the database: classify stored posts (Classification rows and open Flags with
 * their reasons), train and re-score a topic, and turn reviewers' decisions into training samples.
 * Every function takes the Prisma client as its first argument; nothing here imports the global.
 *
 * The parts: ./topic-loader (topic rows, cached models and matchers), ./verdict (the flag rules,
 * no I/O), ./topic-classify (classify posts, re-score a topic), ./topic-train (train a topic),
 * ./topic-learn (fold new review samples into a topic's model, or retrain it in full when due).
 */
export { parseStringList, TopicNotFoundError } from "./topic-loader";
export type { FlagReason, PostVerdict } from "./verdict";
export { classifyPosts, rescoreTopic, type ClassifyOptions, type ClassifyResult, type RescoreOptions } from "./topic-classify";
export {
  trainTopic,
  samplesFromReviews,
  backfillReviewSamples,
  reviewLabel,
  DISMISSED_LABEL,
  type ReviewEvaluation,
  type TopicProgress,
  type TopicStep,
  type TrainTopicOptions,
  type TrainTopicResult,
} from "./topic-train";
export { learnTopic, rescoreOpenFlags, retrainEveryFromEnv, DEFAULT_RETRAIN_EVERY, type LearnTopicOptions, type LearnTopicResult } from "./topic-learn";
