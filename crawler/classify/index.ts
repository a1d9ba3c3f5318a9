/**
 * Topic classification: text cleaning and segmentation (nodejieba behind one module), naive
 * Bayes with χ² selection/weighting, TF-IDF topic vectors with cosine relevance, sensitive-word
 * matching, topic models with a versioned JSON form, and the database service the crawler and
 * the CLI use. Import from here; the other files are internal.
 */
export { cleanText, normalizeWord } from "./text-clean";
export { tokenize, segment, addUserWords, setUserDictionary, loadedUserWords, type SegmentOptions } from "./tokenizer";
export { prepareText, type PreparedText, type FeatureOptions } from "./features";
export {
  trainNaiveBayes,
  NaiveBayes,
  DEFAULT_NB_OPTIONS,
  TrainingError,
  chiSquare,
  type NaiveBayesOptions,
  type NaiveBayesState,
  type NaiveBayesPrediction,
  type TermWeight,
} from "./naive-bayes";
export {
  trainNbLogistic,
  NbLogistic,
  DEFAULT_NB_LOGISTIC_OPTIONS,
  trainNbEnsemble,
  NbEnsemble,
  DEFAULT_NB_ENSEMBLE_OPTIONS,
  type NbLogisticOptions,
  type NbLogisticState,
  type NbEnsembleOptions,
  type NbEnsembleState,
} from "./nbsvm";
export { buildTopicVectors, TopicVector, DEFAULT_VECTOR_OPTIONS, type TopicVectorOptions, type TopicVectorState } from "./vector-space";
export { WordMatcher, type WordHit } from "./aho-corasick";
export {
  parseKeywordRules,
  splitKeywordEntries,
  describeMatches,
  checkRegex,
  KeywordRules,
  type KeywordRuleError,
  type KeywordRuleProblem,
  type RuleMatch,
} from "./keyword-rules";
export {
  SENTIMENTS,
  isSentiment,
  sentimentOf,
  trainSentiment,
  readSentimentSamples,
  saveSentimentModel,
  sentimentModelPath,
  sentimentScorer,
  sentimentStatus,
  corpusDir,
  SENTIMENT_CORPUS_FILE,
  LexiconScorer,
  SentimentModel,
  SentimentModelError,
  type Sentiment,
  type SentimentBand,
  type SentimentHeldOut,
} from "./sentiment";
export {
  train,
  TopicModel,
  ModelFormatError,
  MODEL_FORMAT_VERSION,
  labelCounts,
  type Sample,
  type Prediction,
  type TrainOptions,
  type TopicModelJSON,
} from "./model";
export { foldSamples, FoldError, foldRefusal } from "./model-fold";
export { postText } from "./verdict";
export { parseSamples, sampleFormatOf, topicLabelRule, type LabelRule, type ParsedSamples, type SampleError, type SampleFormat } from "./samples";
export { relevanceDecision, DEFAULT_THRESHOLDS, type RelevanceThresholds, type RelevanceScores, type RelevanceDecision } from "./relevance-rule";
export { evaluateTopicModel, type TopicEvaluation, type EvaluateOptions } from "./evaluate";
export { binaryMetrics, multiClassMetrics, type BinaryMetrics, type MultiClassMetrics } from "./metrics";
export {
  calibrateThreshold,
  parseCalibration,
  precisionRecallCurve,
  MIN_CALIBRATION_SAMPLES,
  MAX_CURVE_POINTS,
  type Calibration,
  type CalibrationMethod,
  type CurvePoint,
  type ScoredSample,
} from "./calibrate";
export { splitRandom } from "./random";
export {
  classifyPosts,
  trainTopic,
  rescoreTopic,
  samplesFromReviews,
  backfillReviewSamples,
  reviewLabel,
  learnTopic,
  rescoreOpenFlags,
  retrainEveryFromEnv,
  DEFAULT_RETRAIN_EVERY,
  type LearnTopicOptions,
  type LearnTopicResult,
  type ReviewEvaluation,
  parseStringList,
  TopicNotFoundError,
  DISMISSED_LABEL,
  type ClassifyOptions,
  type ClassifyResult,
  type FlagReason,
  type PostVerdict,
  type TopicProgress,
  type TopicStep,
  type TrainTopicOptions,
  type TrainTopicResult,
  type RescoreOptions,
} from "./topic-service";
export { classifyPending, type PendingOptions } from "./pending";
export {
  createTopicRow,
  updateTopicRow,
  deleteTopicRow,
  addUploadedSamples,
  clearUploadedSamples,
  storeReviewSample,
  closeReviewedFlag,
  storeFeedbackSamples,
  FEEDBACK_SOURCE,
  LEGACY_FEEDBACK_SOURCE,
} from "./topic-rows";
export {
  selectForReview,
  selectScored,
  REVIEW_STRATEGIES,
  DEFAULT_MAX_SIMILARITY,
  type ReviewStrategy,
  type ReviewPick,
  type ReviewSelectOptions,
  type ScoredCandidate,
} from "./active-learning";
