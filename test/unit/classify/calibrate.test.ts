import { describe, expect, it } from "vitest";
import { calibrateThreshold, MAX_CURVE_POINTS, parseCalibration, precisionRecallCurve, type ScoredSample } from "../../../crawler/classify/calibrate";

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
