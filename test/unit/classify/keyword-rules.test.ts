/**
 * Keyword rules (crawler/classify/keyword-rules.ts): a table of rule lists × texts (written for
 * this test) with the rules that match and what matched them, then a table of refused rules with
 * their line and position, then the splitting of typed lists.
 */
import { describe, expect, test } from "vitest";
import { cleanText } from "../../../crawler/classify/text-clean";
import { checkRegex, describeMatches, parseKeywordRules, splitKeywordEntries } from "../../../crawler/classify/keyword-rules";

// [rules, text, expected detail ("" = no match)]
const MATCHES: [string[], string, string][] = [
  [["考试"], "明天期末考试", "考试"],
  [["考试"], "明天放假", ""],
  [["期末", "考试"], "期末考试安排", "期末, 考试"],
  [["ABC"], "ａｂｃ 公司", "abc"],
  [["食堂 中毒"], "食堂有人中毒了", "食堂 中毒 → 食堂 + 中毒"],
  [["食堂 中毒"], "食堂今天换菜单", ""],
  [["(食堂|饭堂) (中毒|拉肚子)"], "二饭堂吃完拉肚子", "(食堂|饭堂) (中毒|拉肚子) → 饭堂 + 拉肚子"],
  [["(食堂|饭堂) (中毒|拉肚子)"], "宿舍有人拉肚子", ""],
  [["食堂|饭堂 中毒"], "饭堂 中毒 事件", "食堂|饭堂 中毒 → 饭堂 + 中毒"],
  [["食堂 !招聘"], "食堂很脏", "食堂 !招聘 → 食堂"],
  [["食堂 !招聘"], "食堂招聘窗口工", ""],
  [["食堂", "!广告"], "食堂打折广告", ""],
  [["食堂", "宿舍", "!广告"], "宿舍停电", "宿舍"],
  [["考试", "+学校"], "驾照考试", ""],
  [["考试", "+学校"], "学校期末考试", "考试"],
  [["+泄题"], "考试泄题了", "+泄题 → 泄题"],
  [["+泄题 +考试"], "考试泄题了", "+泄题 +考试 → 泄题 + 考试"],
  [["/食堂.{0,6}中毒/"], "三食堂的饭菜导致中毒", "/食堂.{0,6}中毒/ → 食堂的饭菜导致中毒"],
  [["/食堂.{0,3}中毒/"], "三食堂的饭菜导致中毒", ""],
  [["/1[3-9]\\d{9}/"], "联系 13812345678 代考", "/1[3-9]\\d{9}/ → 13812345678"],
  [["代考 /\\d{5,11}/"], "代考加qq 12345678", "代考 /\\d{5,11}/ → 代考 + 12345678"],
  [["代考 !/\\d{5,11}/"], "代考加qq 12345678", ""],
  [['"exam leak"'], "big exam leak today", '"exam leak" → exam leak'],
  [['"exam leak"'], "exam and leak", ""],
  [["作弊", "考试"], "考试时作弊", "考试, 作弊"],
  [["(a|b)"], "xyz", ""],
];

describe("keyword rules match", () => {
  test.each(MATCHES)("%j on %s", (rules, text, detail) => {
    const parsed = parseKeywordRules(rules);
    expect(parsed.errors).toEqual([]);
    expect(describeMatches(parsed.rules.match(cleanText(text)))).toBe(detail);
  });

  test("the words that weigh a page for discovery leave out ! terms and regexes", () => {
    const { rules } = parseKeywordRules(["(食堂|饭堂) 中毒", "+学校 !广告", "/a{1,3}/"]);
    expect(rules.positiveWords().sort()).toEqual(["中毒", "学校", "食堂", "饭堂"].sort());
    expect(rules.excluded("食堂广告")).toBe(true);
    expect(rules.excluded("食堂")).toBe(false);
  });
});

// [rule, line, column, problem]
const REFUSED: [string, number, number, string][] = [
  ["(食堂|饭堂", 1, 1, "unclosedGroup"],
  ["(食堂||饭堂)", 1, 1, "emptyGroup"],
  ["食堂|", 1, 1, "emptyGroup"],
  ["((a|b)|c)", 1, 2, "nestedGroup"],
  ["食堂)", 1, 3, "strayParen"],
  ['"exam leak', 1, 1, "unclosedQuote"],
  ["/食堂.{0,5}", 1, 1, "unclosedRegex"],
  ["食堂 +", 1, 4, "emptyTerm"],
  ["(a|b)c", 1, 6, "trailing"],
  ["/食堂.*中毒/", 1, 5, "regexUnbounded"],
  ["/a+/", 1, 3, "regexUnbounded"],
  ["/a{2,}/", 1, 3, "regexUnbounded"],
  ["/a{0,99}/", 1, 3, "regexRepeatTooLarge"],
  ["/(a|aa){0,20}b/", 1, 1, "regexTooComplex"],
  ["/.{0,9}.{0,9}.{0,9}.{0,9}x/", 1, 1, "regexTooComplex"],
  ["/(?=a)b/", 1, 3, "regexUnsupported"],
  ["/(a)\\1/", 1, 5, "regexUnsupported"],
  ["/a?/", 1, 1, "regexMatchesEmpty"],
  ["/[a-/", 1, 2, "regexInvalid"],
];

describe("refused rules say where and why", () => {
  test.each(REFUSED)("%s", (rule, line, column, problem) => {
    const { errors } = parseKeywordRules(["考试", rule].slice(1));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line, column, problem });
    expect(errors[0]!.message).toMatch(new RegExp(`^line ${line}, position ${column}: `));
  });

  test("the line number counts entries; good rules still match beside a bad one", () => {
    const { rules, errors } = parseKeywordRules(["考试", "/a*/", "作弊"]);
    expect(errors.map((e) => [e.line, e.problem])).toEqual([[2, "regexUnbounded"]]);
    expect(describeMatches(rules.match("考试作弊"))).toBe("考试, 作弊");
  });

  test("a regex within the limits compiles and is accepted", () => {
    expect(checkRegex("食堂.{0,20}(中毒|腹泻)")).toBeNull();
    expect(checkRegex("\\d{11}")).toBeNull();
    expect(checkRegex("(?:考研|考试).{0,10}泄题")).toBeNull();
  });

  test("a hostile text against an accepted regex stays fast (no catastrophic backtracking)", () => {
    const { rules, errors } = parseKeywordRules(["/(?:a|b){0,3}.{0,20}c/"]);
    expect(errors).toEqual([]);
    // Correctness only (no timing): the match is found or not, on a long adversarial text.
    expect(rules.match("ab".repeat(20_000))).toEqual([]);
  });
});

describe("splitting a typed list", () => {
  test.each([
    ["考试,作弊", ["考试", "作弊"]],
    ["考试，作弊、代考；泄题", ["考试", "作弊", "代考", "泄题"]],
    ["/食堂.{0,10}中毒/, 宿舍", ["/食堂.{0,10}中毒/", "宿舍"]],
    ["(食堂,饭堂) 中毒", ["(食堂,饭堂) 中毒"]],
    ["食堂 中毒\n宿舍\n\n食堂 中毒", ["食堂 中毒", "宿舍"]],
    ['"a, b" c', ['"a, b" c']],
  ])("%j", (text, entries) => {
    expect(splitKeywordEntries(text)).toEqual(entries);
  });
});
