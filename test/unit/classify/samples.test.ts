import { describe, expect, it } from "vitest";
import { parseSamples, sampleFormatOf, topicLabelRule } from "../../../crawler/classify";

describe("parseSamples (JSON Lines)", () => {
  it("reads good lines, skips blank ones and reports each bad one with its line number", () => {
    const input = [
      '{"label": "考试", "text": "期末考试下周开始"}',
      "",
      '{"label": "食堂", "text": "二食堂的面很好吃", "extra": 1}',
      '{"label": "考试", "text": "成绩出来了"',
      '{"text": "没有标签的一行"}',
      '{"label": "食堂"}',
      '{"label": "食堂", "text": "   "}',
      '{"label": "", "text": "空标签"}',
      '{"label": ["考试"], "text": "标签是数组"}',
      '["考试", "不是对象"]',
      '{"label": 3, "text": "数字标签可以"}',
    ].join("\n");
    const { samples, errors } = parseSamples(input, "jsonl");
    expect(samples).toEqual([
      { label: "考试", text: "期末考试下周开始" },
      { label: "食堂", text: "二食堂的面很好吃" },
      { label: "3", text: "数字标签可以" },
    ]);
    expect(errors.map((e) => [e.line, e.reason.replace(/: .*$/, "")])).toEqual([
      [4, "invalid JSON"],
      [5, 'missing field "label"'],
      [6, 'missing field "text"'],
      [7, "empty text"],
      [8, "empty label"],
      [9, '"label" must be a string (got array)'],
      [10, "expected a JSON object with label and text"],
    ]);
  });

  it("handles CRLF line ends and a byte-order mark", () => {
    const { samples, errors } = parseSamples('\uFEFF{"label":"考试","text":"补考"}\r\n{"label":"食堂","text":"早餐"}\r\n', "jsonl");
    expect(errors).toEqual([]);
    expect(samples.map((s) => s.text)).toEqual(["补考", "早餐"]);
  });
});

describe("parseSamples (CSV)", () => {
  it("reads a label,text header with quoted commas, quotes and newlines, numbering lines from 1", () => {
    const input = [
      "label,text",
      '考试,"期末考试，下周一开始"',
      '食堂,"他说""好吃""',
      "第二行也属于这条记录",
      '"',
      "食堂,",
      "考试",
      '体育,"篮球比赛"多余',
      "体育,运动会开幕",
    ].join("\n");
    const { samples, errors } = parseSamples(input, "csv");
    expect(samples).toEqual([
      { label: "考试", text: "期末考试，下周一开始" },
      { label: "食堂", text: '他说"好吃"\n第二行也属于这条记录\n' },
      { label: "体育", text: "运动会开幕" },
    ]);
    expect(errors).toEqual([
      { line: 6, reason: "empty text", code: "emptyText" },
      { line: 7, reason: "expected 2 columns (label, text), got 1", code: "columns", values: { expected: 2, got: 1 } },
      { line: 8, reason: "text after a closing quote", code: "textAfterQuote" },
    ]);
  });

  it("accepts columns in any order, or no header at all", () => {
    expect(parseSamples("text,label\n补考通知,考试\n", "csv").samples).toEqual([{ label: "考试", text: "补考通知" }]);
    expect(parseSamples("考试,补考通知\n食堂,早餐\n", "csv").samples).toEqual([
      { label: "考试", text: "补考通知" },
      { label: "食堂", text: "早餐" },
    ]);
  });

  it("refuses a header that names only one of the columns", () => {
    expect(parseSamples("label,body\n考试,补考\n", "csv").errors).toEqual([
      { line: 1, reason: 'header must name both "label" and "text" columns', code: "header" },
    ]);
  });

  it("reports an unterminated quote", () => {
    expect(parseSamples('label,text\n考试,"没有结束\n', "csv").errors).toEqual([{ line: 2, reason: "unterminated quoted field", code: "unterminatedQuote" }]);
  });

  it("picks the format from the file name", () => {
    expect(sampleFormatOf("samples.CSV")).toBe("csv");
    expect(sampleFormatOf("samples.jsonl")).toBe("jsonl");
  });
});

describe("the label rule of a topic (what reviewers type)", () => {
  const review = topicLabelRule(["体育", "校运会"], "review");
  const corpus = topicLabelRule(["体育", "校运会"], "corpus");
  /** [label, what review mode gives, what corpus mode gives]; an object is a refusal's code. */
  const TABLE: [string, string | { code: string }, string | { code: string }][] = [
    ["体育", "体育", "体育"],
    ["校运会", "体育", "校运会"],
    [" 体育 ", "体育", "体育"],
    ["on-topic", "体育", "体育"],
    ["ON-TOPIC", "体育", "体育"],
    ["off-topic", "off-topic", "off-topic"],
    ["Off-Topic", "off-topic", "off-topic"],
    ["on topic", { code: "lookalikeLabel" }, { code: "lookalikeLabel" }],
    ["on_topic", { code: "lookalikeLabel" }, { code: "lookalikeLabel" }],
    ["offtopic", { code: "lookalikeLabel" }, { code: "lookalikeLabel" }],
    ["relevant", { code: "lookalikeLabel" }, { code: "lookalikeLabel" }],
    ["相关", { code: "lookalikeLabel" }, { code: "lookalikeLabel" }],
    ["不相关", { code: "lookalikeLabel" }, { code: "lookalikeLabel" }],
    ["财经", { code: "unknownLabel" }, "财经"],
    ["1", { code: "unknownLabel" }, "1"],
  ];
  it.each(TABLE)("%j", (label, inReview, inCorpus) => {
    const r = review(label);
    if (typeof inReview === "string") expect(r).toBe(inReview);
    else expect(r).toMatchObject(inReview);
    const c = corpus(label);
    if (typeof inCorpus === "string") expect(c).toBe(inCorpus);
    else expect(c).toMatchObject(inCorpus);
  });

  it("refuses through the sample reader with the line, the same way in JSON Lines and CSV", () => {
    const jsonl = ['{"label":"on-topic","text":"校运会开幕"}', '{"label":"食堂","text":"二食堂"}', '{"label":"off-topic","text":"图书馆"}'].join("\n");
    const r = parseSamples(jsonl, "jsonl", review);
    expect(r.samples).toEqual([
      { label: "体育", text: "校运会开幕" },
      { label: "off-topic", text: "图书馆" },
    ]);
    expect(r.errors).toEqual([
      {
        line: 2,
        code: "unknownLabel",
        reason: 'unknown label "食堂": use 体育, 校运会, on-topic, off-topic',
        values: { label: "食堂", accepted: "体育, 校运会, on-topic, off-topic" },
      },
    ]);
    const csv = parseSamples("label,text\n相关,校运会开幕\non-topic,篮球赛\n", "csv", corpus);
    expect(csv.samples).toEqual([{ label: "体育", text: "篮球赛" }]);
    expect(csv.errors).toMatchObject([{ line: 2, code: "lookalikeLabel" }]);
  });
});
