import { describe, expect, it } from "vitest";
import { MAX_REVIEW_WEIGHT, repeatByWeight, reviewWeight } from "../../../crawler/classify/review-weight";

describe("the weight of a review sample", () => {
  it("grows with the uploaded samples a review competes with: 1 for small topics, at most 50", () => {
    expect(reviewWeight(0, {})).toBe(1);
    expect(reviewWeight(60, {})).toBe(1);
    expect(reviewWeight(1_400, {})).toBe(1);
    expect(reviewWeight(10_000, {})).toBe(10);
    expect(reviewWeight(63_758, {})).toBe(MAX_REVIEW_WEIGHT);
    expect(reviewWeight(1_000_000, {})).toBe(50);
  });

  it("CAMPUSWATCH_REVIEW_WEIGHT sets it outright; a malformed value is refused with its name", () => {
    expect(reviewWeight(63_758, { CAMPUSWATCH_REVIEW_WEIGHT: "1" })).toBe(1);
    expect(reviewWeight(10, { CAMPUSWATCH_REVIEW_WEIGHT: "200" })).toBe(200);
    expect(reviewWeight(10, { CAMPUSWATCH_REVIEW_WEIGHT: " " })).toBe(1);
    for (const bad of ["0", "-3", "2.5", "many"]) expect(() => reviewWeight(10, { CAMPUSWATCH_REVIEW_WEIGHT: bad })).toThrow(/CAMPUSWATCH_REVIEW_WEIGHT/);
  });

  it("repeatByWeight repeats each item its weight times, in order, and refuses bad weights", () => {
    expect(repeatByWeight(["a", "b", "c"], [1, 3, 2])).toEqual(["a", "b", "b", "b", "c", "c"]);
    expect(() => repeatByWeight(["a"], [1, 2])).toThrow(/weights/);
    expect(() => repeatByWeight(["a"], [0])).toThrow(/integers/);
  });
});
