import { describe, expect, it } from "vitest";
import { adaptiveTickCron, chooseInterval, cronIntervalS } from "../../crawler/adaptive-interval";
import { durationOption } from "../../crawler/commands/util";

const base = { baseS: 600, minS: 60, maxS: 7200, refRatePerHour: 1, hot: null } as const;

describe("chooseInterval (the square-root rule)", () => {
  it("keeps the base interval at the reference rate, halves it at four times the rate, doubles it at a quarter", () => {
    expect(chooseInterval({ ...base, ratePerHour: 1 }).intervalS).toBe(600);
    expect(chooseInterval({ ...base, ratePerHour: 4 }).intervalS).toBe(300);
    expect(chooseInterval({ ...base, ratePerHour: 0.25 }).intervalS).toBe(1200);
    expect(chooseInterval({ ...base, ratePerHour: 4 }).reason).toEqual({ code: "rate", values: { perDay: 96, baseS: 600 } });
  });

  it("clamps to the bounds, polls a quiet account at its maximum and a hot one at its minimum", () => {
    expect(chooseInterval({ ...base, ratePerHour: 10_000 }).intervalS).toBe(60);
    expect(chooseInterval({ ...base, ratePerHour: 0.0001 }).intervalS).toBe(7200);
    expect(chooseInterval({ ...base, ratePerHour: 0 })).toEqual({ intervalS: 7200, reason: { code: "quiet", values: { days: 7 } } });
    expect(chooseInterval({ ...base, ratePerHour: 0, hot: "thread" }).intervalS).toBe(60);
    expect(chooseInterval({ ...base, ratePerHour: 5, hot: "incident" })).toEqual({ intervalS: 60, reason: { code: "hotIncident", values: {} } });
  });

  it("spends the fixed schedule's request budget when nothing is clamped: Σ 1/I = N / base with the reference (mean √r)²", () => {
    const rates = [0.5, 1, 2, 3, 8, 0.2];
    const meanRoot = rates.reduce((a, r) => a + Math.sqrt(r), 0) / rates.length;
    const wide = { baseS: 600, minS: 30, maxS: 604_800, refRatePerHour: meanRoot * meanRoot, hot: null } as const;
    const perSecond = rates.reduce((a, r) => a + 1 / chooseInterval({ ...wide, ratePerHour: r }).intervalS, 0);
    expect(perSecond).toBeCloseTo(rates.length / 600, 4);
    // And the expected latency summed over items is lower than the fixed schedule's.
    const latency = (interval: (r: number) => number) => rates.reduce((a, r) => a + (r * interval(r)) / 2, 0);
    expect(latency((r) => chooseInterval({ ...wide, ratePerHour: r }).intervalS)).toBeLessThan(latency(() => 600));
  });
});

describe("the adaptive tick and a cron's interval", () => {
  it("ticks every minute from a minute up, and on a divisor of 60 s below", () => {
    expect(adaptiveTickCron(120)).toBe("* * * * *");
    expect(adaptiveTickCron(60)).toBe("* * * * *");
    expect(adaptiveTickCron(45)).toBe("*/30 * * * * *");
    expect(adaptiveTickCron(30)).toBe("*/30 * * * * *");
  });

  it("reads a cron's interval from its next two runs", () => {
    expect(cronIntervalS("*/5 * * * *")).toBe(300);
    expect(cronIntervalS("0 * * * *")).toBe(3600);
    expect(cronIntervalS("not a cron")).toBe(0);
  });
});

describe("durationOption", () => {
  const parse = durationOption("--min-interval");
  it("reads seconds, minutes, hours and days, and refuses anything else with the option's name", () => {
    expect(parse("90")).toBe(90);
    expect(parse("90s")).toBe(90);
    expect(parse("5m")).toBe(300);
    expect(parse("2H")).toBe(7200);
    expect(parse("1d")).toBe(86_400);
    for (const bad of ["", "5 minutes", "-5m", "1.5h", "m"]) expect(() => parse(bad), bad).toThrow(/--min-interval must be a duration/);
  });
});
