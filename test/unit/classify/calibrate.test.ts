import { describe, expect, it } from "vitest";
import {
  calibrateThreshold,
  expectedCurve,
  fitPlatt,
  MAX_CURVE_POINTS,
  parseCalibration,
  precisionRecallCurve,
  type ScoredSample,
} from "../../../crawler/classify/calibrate";
import { seededRandom } from "../../../crawler/classify/random";

/** Samples from [score, relevant] pairs. */
const s = (pairs: [number, boolean][]): ScoredSample[] => pairs.map(([score, relevant]) => ({ score, relevant }));

// 12 held-out reviews: on-topic ones score high, with two off-topic ones in among them.
const MIXED = s([
  [0.99, true],
  [0.95, true],
  [0.9, false],
  [0.85, true],
  [0.8, true],
  [0.7, false],
  [0.6, true],
  [0.4, false],
  [0.3, true],
  [0.2, false],
  [0.1, false],
  [0.05, false],
]);

describe("precisionRecallCurve", () => {
  it("one point per distinct score, descending, the decision P ≥ threshold flagging exactly the samples scoring at least that", () => {
    const curve = precisionRecallCurve(MIXED);
    expect(curve).toHaveLength(12);
    expect(curve[0]).toEqual({ threshold: 0.97, precision: 1, recall: 1 / 6, f1: expect.closeTo(2 / 7, 9) });
    // The threshold lies between the score that is flagged and the next lower one.
    expect(curve[4]?.threshold).toBe(0.75);
    expect(curve[4]).toMatchObject({ precision: 0.8, recall: 4 / 6 });
    expect(curve.at(-1)).toMatchObject({ threshold: 0.05, precision: 0.5, recall: 1 });
    // Tied scores are decided together.
    expect(
      precisionRecallCurve(
        s([
          [0.8, true],
          [0.8, false],
          [0.2, false],
        ]),
      ).map((p) => p.precision),
    ).toEqual([0.5, 1 / 3]);
    expect(precisionRecallCurve(s([[0.8, false]]))).toEqual([]);
  });
});

describe("calibrateThreshold", () => {
  it("without a target: the threshold of maximum F1", () => {
    const c = calibrateThreshold(MIXED, { current: 0.5 });
    // Flagging the top 9 (down to 0.3): 6 of 9 on-topic, all 6 found → F1 0.8, the best (the top 7 give 0.769).
    expect(c).toMatchObject({ method: "f1", chosen: 0.25, applied: true, threshold: 0.25, previous: 0.5, heldOut: 12, onTopic: 6 });
    const at = c.points.find((p) => p.threshold === c.chosen);
    expect(at?.f1).toBeCloseTo(0.8, 9);
    for (const p of c.points) expect(p.f1).toBeLessThanOrEqual((at?.f1 ?? 0) + 1e-12);
    expect(c.reason).toMatch(/^maximum F1: threshold 0\.25 \(precision 0\.667, recall 1\.000, F1 0\.800 on 12 held-out reviews\)$/);
  });

  it("ties of F1 go to the higher threshold", () => {
    const twin = s([
      [0.9, true],
      [0.8, false],
      [0.7, false],
      [0.6, true],
      [0.5, false],
      [0.4, false],
      [0.3, false],
      [0.2, false],
      [0.15, false],
      [0.1, false],
    ]);
    // Flag 1: P 1, R 1/2, F1 2/3. Flag 4: P 1/2, R 1, F1 2/3. Equal: the higher threshold (flag 1).
    const c = calibrateThreshold(twin, { current: 0.5 });
    expect(c).toMatchObject({ method: "f1", chosen: 0.85 });
    // The same samples in another order choose the same.
    expect(calibrateThreshold([...twin].reverse(), { current: 0.5 }).chosen).toBe(0.85);
  });

  it("with a target precision: the lowest threshold whose precision reaches it", () => {
    const c = calibrateThreshold(MIXED, { current: 0.5, targetPrecision: 0.8 });
    // Precision ≥ 0.8 down to 0.8 (4 of 5); at 0.7 it falls to 4/6.
    expect(c).toMatchObject({ method: "target", chosen: 0.75, threshold: 0.75, applied: true, targetPrecision: 0.8 });
    expect(c.reason).toMatch(/^lowest threshold with precision >= 0\.8: threshold 0\.75 /);
    expect(calibrateThreshold(MIXED, { current: 0.5, targetPrecision: 0.99 })).toMatchObject({ method: "target", chosen: 0.93 });
  });

  it("an unreachable target: the threshold with the best precision, said so", () => {
    const noisy = s([
      [0.9, false],
      [0.85, true],
      [0.8, true],
      [0.7, false],
      [0.6, true],
      [0.5, false],
      [0.4, false],
      [0.3, true],
      [0.2, false],
      [0.1, false],
    ]);
    const c = calibrateThreshold(noisy, { current: 0.5, targetPrecision: 0.9 });
    // Best precision 2/3 (flag the top 3); nothing reaches 0.9.
    expect(c).toMatchObject({ method: "target-unreached", chosen: 0.75, threshold: 0.75, applied: true });
    expect(c.reason).toMatch(/^no threshold reaches precision 0\.9; the best precision: threshold 0\.75 \(precision 0\.667/);
  });

  it("too few held-out reviews, or only one kind of them: no choice, the threshold stays", () => {
    const few = calibrateThreshold(MIXED.slice(0, 9), { current: 0.6 });
    expect(few).toMatchObject({ method: "too-few", chosen: null, applied: false, threshold: 0.6, heldOut: 9, points: [] });
    expect(few.reason).toBe("9 held-out reviews (calibration needs 10): threshold 0.6 kept");
    const allOff = calibrateThreshold(
      MIXED.map((x) => ({ ...x, relevant: false })),
      { current: 0.6 },
    );
    expect(allOff).toMatchObject({ method: "too-few", threshold: 0.6 });
    expect(allOff.reason).toBe("the 12 held-out reviews are all off-topic: threshold 0.6 kept");
  });

  it("calibration off: the choice and curve are computed, the threshold stays", () => {
    const c = calibrateThreshold(MIXED, { current: 0.3, apply: false });
    expect(c).toMatchObject({ method: "f1", chosen: 0.25, applied: false, threshold: 0.3 });
    expect(c.reason).toMatch(/; calibration is off, threshold 0\.3 kept$/);
  });

  it("a long curve is thinned to 50 points, ascending, with the chosen point kept; stored JSON reads back", () => {
    // Fixed pseudo-random scores (no Math.random): 400 samples, on-topic ones scoring higher.
    let x = 7;
    const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
    const many = Array.from({ length: 400 }, (_, i) => ({
      score: Math.min(1, Math.max(0, (i % 2 ? 0.65 : 0.35) + (rnd() - 0.5) * 0.6)),
      relevant: i % 2 === 1,
    }));
    const c = calibrateThreshold(many, { current: 0.5 });
    expect(c.points.length).toBeLessThanOrEqual(MAX_CURVE_POINTS);
    expect(c.points.length).toBeGreaterThan(40);
    expect(c.points.map((p) => p.threshold)).toEqual([...c.points.map((p) => p.threshold)].sort((a, b) => a - b));
    expect(c.points.some((p) => p.threshold === c.chosen)).toBe(true);
    expect(parseCalibration(JSON.stringify(c))).toEqual(c);
    expect(parseCalibration("{oops")).toBeNull();
    expect(parseCalibration(null)).toBeNull();
  });
});

const sigmoid = (u: number) => 1 / (1 + Math.exp(-u));
const logit = (p: number) => Math.log(p / (1 - p));

describe("fitPlatt", () => {
  it("recovers the sigmoid the labels were drawn from", () => {
    const rand = seededRandom(11);
    // 4,000 scores over log-odds −6…6; on-topic with probability σ(0.8·z − 1).
    const samples = Array.from({ length: 4000 }, (_, i) => {
      const z = -6 + (12 * i) / 3999;
      return { score: sigmoid(z), relevant: rand() < sigmoid(0.8 * z - 1) };
    });
    const { a, b } = fitPlatt(samples);
    // Within sampling error of 4,000 draws (fixed seed: a 0.80, b −0.93).
    expect(Math.abs(a - 0.8)).toBeLessThan(0.1);
    expect(Math.abs(b + 1)).toBeLessThan(0.15);
  });

  it("with the slope fixed, fits the shift of the log-odds alone; a prior pulls few samples toward the probe's own scores", () => {
    const rand = seededRandom(3);
    const samples = Array.from({ length: 4000 }, (_, i) => {
      const z = -1 + (2 * i) / 3999; // a narrow band, as queue answers are
      return { score: sigmoid(z), relevant: rand() < sigmoid(z - 2) };
    });
    const { a, b } = fitPlatt(samples, 10, 1);
    expect(a).toBe(1);
    expect(Math.abs(b + 2)).toBeLessThan(0.15);
    // Ten samples against a prior of ten: b moves about half-way or less.
    expect(
      Math.abs(
        fitPlatt(
          samples.filter((_, i) => i % 400 === 0),
          10,
          1,
        ).b,
      ),
    ).toBeLessThan(1.5);
  });

  it("stays finite on perfectly separated and on saturated scores", () => {
    const { a, b } = fitPlatt(
      s([
        [1 - 1e-15, true],
        [0.9, true],
        [0.7, true],
        [0.3, false],
        [1e-15, false],
      ]),
    );
    expect(Number.isFinite(a) && Number.isFinite(b)).toBe(true);
    expect(a).toBeGreaterThan(0);
  });
});

describe("expectedCurve", () => {
  it("sums P(on-topic) above and below each threshold: expected precision, recall and F1", () => {
    // Four posts; P(on-topic) 1, 0.5, 0.5, 0 by score.
    const p = new Map([
      [0.9, 1],
      [0.6, 0.5],
      [0.4, 0.5],
      [0.1, 0],
    ]);
    const curve = expectedCurve([0.4, 0.9, 0.1, 0.6], (x) => p.get(x) as number);
    expect(curve.map((c) => c.threshold)).toEqual([0.75, 0.5, 0.25, 0.1]);
    // Flagging the top two: expected TP 1.5 of 2 on-topic, 2 flagged.
    expect(curve[1]).toMatchObject({ precision: 0.75, recall: 0.75 });
    expect(curve[1]?.f1).toBeCloseTo(0.75, 12);
    expect(curve.at(-1)).toMatchObject({ precision: 0.5, recall: 1 });
    expect(expectedCurve([0.2, 0.3], () => 0)).toEqual([]);
  });
});

describe("calibrateThreshold over crawled posts", () => {
  // 3,000 crawled posts whose log-odds spread over −8…8; really on-topic with probability σ(z − 3):
  // the probe is too eager, the best threshold lies well above 0.5.
  const truth = (score: number) => sigmoid(logit(score) - 3);
  const population = Array.from({ length: 3000 }, (_, i) => sigmoid(-8 + (16 * i) / 2999));
  const bestF1 = Math.max(...expectedCurve(population, truth).map((p) => p.f1));
  const f1At = (t: number) => {
    const flagged = population.filter((x) => x >= t);
    const tp = flagged.reduce((sum, x) => sum + truth(x), 0);
    const positives = population.reduce((sum, x) => sum + truth(x), 0);
    return (2 * tp) / (flagged.length + positives);
  };
  // 60 held-out answers from the review queue: all near the old threshold (log-odds −1…3), labelled by the truth.
  const rand = seededRandom(5);
  const queue = Array.from({ length: 60 }, (_, i) => {
    const score = sigmoid(-1 + (4 * i) / 59);
    return { score, relevant: rand() < truth(score) };
  });

  it("chooses on the expected curve over the posts, within 2 points of the best F1 the truth allows", () => {
    const c = calibrateThreshold(queue, { current: 0.5, population });
    expect(c).toMatchObject({ basis: "posts", posts: 3000, method: "f1", applied: true });
    expect(c.reason).toMatch(/over 3000 crawled posts, P\(on-topic \| score\) fitted on 60 held-out reviews/);
    expect(f1At(c.threshold)).toBeGreaterThan(bestF1 - 0.02);
    expect(f1At(0.5)).toBeLessThan(bestF1 - 0.05);
  });

  it("holds a target precision on the expected curve", () => {
    const c = calibrateThreshold(queue, { current: 0.5, population, targetPrecision: 0.9 });
    expect(c).toMatchObject({ basis: "posts", method: "target" });
    // The truth's precision at the chosen threshold is near the target: the fit is on 60 answers and
    // its prior pulls the shift toward the probe's own scores, so a little under it.
    const precisionAt = (t: number) => {
      const f = population.filter((x) => x >= t);
      return f.reduce((sum, x) => sum + truth(x), 0) / f.length;
    };
    expect(precisionAt(c.threshold)).toBeGreaterThan(0.8);
    expect(precisionAt(0.5)).toBeLessThan(0.7);
  });

  it("keeps the current threshold unless moving gains at least 0.01 expected F1 (no flapping on a flat curve)", () => {
    // Scores that are right (P(on-topic | score) = score): F1 is flat around its best.
    const rnd = seededRandom(9);
    const right = Array.from({ length: 60 }, (_, i) => {
      const score = sigmoid(-2 + (4 * i) / 59);
      return { score, relevant: rnd() < score };
    });
    // Far from the best, it moves there.
    const best = calibrateThreshold(right, { current: 0.999, population });
    expect(best.threshold).not.toBe(0.999);
    expect(best.reason).toMatch(/^maximum F1: threshold/);
    const near = best.points.find((p) => p.threshold !== best.chosen && p.f1 > (best.points.find((q) => q.threshold === best.chosen)?.f1 ?? 0) - 0.005);
    expect(near).toBeDefined();
    const kept = calibrateThreshold(right, { current: near?.threshold as number, population });
    expect(kept).toMatchObject({ basis: "posts", method: "f1", chosen: near?.threshold, threshold: near?.threshold, applied: true });
    expect(kept.reason).toMatch(/^maximum F1 kept: threshold [\d.]+ would gain under 0\.01 expected F1/);
    expect(kept.points.some((p) => p.threshold === kept.chosen)).toBe(true);
  });

  it("under 50 posts, the held-out reviews' own curve", () => {
    expect(calibrateThreshold(MIXED, { current: 0.5, population: population.slice(0, 49) })).toMatchObject({ basis: "reviews", posts: 0, chosen: 0.25 });
  });
});
