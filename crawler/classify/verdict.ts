/**
 * The judgement of one post against one topic, without I/O: scores, matched words and the
 * reasons to flag it.
 *
 * Flag rules (per post × enabled topic):
 * - "classifier" and "cosine": the topic has a model and the relevance rule (./relevance-rule)
 *   says so: P(on-topic) ≥ nbThreshold (the model's own kind decides how P is computed: naive
 *   Bayes, or naive Bayes averaged with NBSVM; both are posteriors in [0, 1]), or the topic has a
 *   topic vector and cosine ≥ cosineThreshold;
 * - "sensitive": any sensitive word occurs (whatever the scores);
 * - "keyword": keyword hits FLAG only while a topic is untrained (no model yet: keywords are then
 *   its only relevance signal). Once trained, keywords are broad words that would flood reviewers
 *   on their own, so they are listed as an extra reason on posts flagged for another reason.
 */
import type { ClassifierKind } from "../../lib/classifiers";
import type { WordHit } from "./aho-corasick";
import type { PreparedText } from "./features";
import { describeMatches } from "./keyword-rules";
import { relevanceDecision } from "./relevance-rule";
import type { LoadedTopic } from "./topic-loader";

/** Why a post was flagged. */
export interface FlagReason {
  kind: "classifier" | "cosine" | "sensitive" | "keyword";
  detail: string;
}

/** The judgement of one post against one topic, before it is written. */
export interface PostVerdict {
  score: number;
  cosine: number;
  label: string;
  relevant: boolean;
  topTerms: { term: string; weight: number }[];
  sensitiveHits: WordHit[];
  /** What the matched keyword rules matched (words, or a regex's matched text). */
  keywordHits: string[];
  /** Empty when the post is not flagged. */
  reasons: FlagReason[];
}

/** How a flag reason names the model that scored the post. */
const CLASSIFIER_NAMES: Record<ClassifierKind, string> = {
  nb: "naive Bayes",
  "nb-chi2": "naive Bayes (χ²)",
  "nb-nbsvm": "naive Bayes + NBSVM",
  "nb-svm": "naive Bayes + SVM",
};

function fmt(x: number): string {
  return x.toFixed(3);
}

/** Judge one prepared post against one loaded topic (no I/O). */
export function judge(topic: LoadedTopic, text: PreparedText): PostVerdict {
  const { row, model } = topic;
  const sensitiveHits = topic.sensitive.findAll(text.cleaned);
  const keywordMatches = topic.keywords.match(text.cleaned);
  const keywordHits = [...new Set(keywordMatches.flatMap((m) => m.hits))];
  const reasons: FlagReason[] = [];
  let score = 0;
  let cosine = 0;
  let label: string;
  let relevant: boolean;
  let topTerms: PostVerdict["topTerms"] = [];
  if (model) {
    const p = model.predictPrepared(text);
    score = p.score;
    cosine = p.cosine;
    topTerms = p.topTerms;
    const decision = relevanceDecision({ score, cosine, hasVector: model.hasVector }, row);
    const { byClassifier, byCosine } = decision;
    relevant = decision.relevant;
    label = p.label;
    if (byClassifier) {
      const terms = topTerms.map((t) => t.term).join(", ");
      reasons.push({
        kind: "classifier",
        detail: `${CLASSIFIER_NAMES[model.classifier]} P(on-topic) ${fmt(score)} ≥ ${row.nbThreshold} (label ${p.label}${terms ? `; terms ${terms}` : ""})`,
      });
    }
    if (byCosine) reasons.push({ kind: "cosine", detail: `cosine ${fmt(cosine)} ≥ ${row.cosineThreshold}` });
  } else {
    relevant = keywordMatches.length > 0;
    label = relevant ? "on-topic" : "off-topic";
  }
  if (sensitiveHits.length > 0) {
    reasons.push({ kind: "sensitive", detail: sensitiveHits.map((h) => `${h.word} @${h.start}–${h.end}`).join(", ") });
  }
  if (keywordMatches.length > 0 && (reasons.length > 0 || !model)) {
    // The detail names the rule that matched and what matched it (./keyword-rules.ts describeMatches).
    reasons.push({ kind: "keyword", detail: describeMatches(keywordMatches) });
  }
  return { score, cosine, label, relevant, topTerms, sensitiveHits, keywordHits, reasons };
}

/** The text of a post that is classified: title, body and OCR text of its images. */
export function postText(p: { title: string; text: string; ocrText: string | null }): string {
  // The title is classified with the body; OCR text is part of the post (method.md §1).
  return [p.title, p.text, p.ocrText ?? ""].filter((s) => s.trim() !== "").join("\n");
}
