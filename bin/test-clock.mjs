// A controllable clock for the browser tests, inert unless CAMPUSWATCH_TEST_CLOCK_FILE is set.
//
// Some behaviour depends on time passing on the server (the sign-in throttle's 15-minute window).
// A browser test cannot wait 15 minutes, so the test server's clock is shifted instead: the file
// holds a number of milliseconds, added to the real time by `Date.now()` and `new Date()` in the
// dashboard process. The test writes the file; the server re-reads it when it changes. Production
// never sets the variable, and then nothing here runs.
import fs from "node:fs";

/** Install the shifted clock when CAMPUSWATCH_TEST_CLOCK_FILE is set; otherwise do nothing. */
export function installTestClock() {
  const file = process.env.CAMPUSWATCH_TEST_CLOCK_FILE;
  if (!file) return;
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  let offset = 0;
  let seen = -1;
  const current = () => {
    try {
      const stat = fs.statSync(file);
      if (stat.mtimeMs !== seen) {
        seen = stat.mtimeMs;
        offset = Number(fs.readFileSync(file, "utf8").trim()) || 0;
      }
    } catch {
      offset = 0;
    }
    return realNow() + offset;
  };
  // A function rather than a class, so `Date()` without `new` keeps working; every static member
  // (UTC, parse, prototype) is copied as an own property, as Next.js's own Date wrapper expects.
  function ShiftedDate(...args) {
    if (new.target === undefined) return new RealDate(current()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [current()] : args, new.target);
  }
  const statics = Object.getOwnPropertyDescriptors(RealDate);
  statics.now = { ...statics.now, value: () => current() };
  Object.defineProperties(ShiftedDate, statics);
  globalThis.Date = ShiftedDate;
  console.warn(`test clock: the dashboard's time follows ${file} (tests only)`);
}
