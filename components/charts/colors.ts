/** One colour per platform and per review status, the same in every chart. */
export const PLATFORM_COLORS: Record<string, string> = { weibo: "#d9363e", tieba: "#2f6fd6", discuz: "#23a55a", blog: "#8250df" };
export const PLATFORM_LABELS: Record<string, string> = { weibo: "微博 Weibo", tieba: "贴吧 Tieba", discuz: "论坛 Discuz!", blog: "博客 Blog" };
export const STATUS_COLORS = { open: "#f0a92e", confirmed: "#d9363e", dismissed: "#9aa5b1" };
export const SERIES_COLORS = ["#2f6fd6", "#d9363e", "#23a55a", "#8250df", "#f0a92e", "#0b8a93"];
export const AXIS = { fontSize: 11, fill: "#5d6b7a" };
export const GRID = "#e6e9ee";
export const fmt = (n: unknown) => (typeof n === "number" ? n.toLocaleString("en-US") : String(n ?? ""));
