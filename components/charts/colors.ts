import { useFormatter } from "next-intl";
import { PLATFORM_ENTRIES } from "@/lib/platforms";

/** One colour per platform (its registry entry's) and per review status, the same in every chart. */
export const PLATFORM_COLORS: Readonly<Record<string, string>> = Object.fromEntries(PLATFORM_ENTRIES.map((e) => [e.id, e.colours.chart]));
export const STATUS_COLORS = { open: "#f0a92e", confirmed: "#d9363e", dismissed: "#9aa5b1" };
/** A review decision in the colour of the flag status it leads to. */
export const DECISION_COLORS = { confirm: STATUS_COLORS.confirmed, dismiss: STATUS_COLORS.dismissed };
export const INCIDENT_COLORS = { open: "#8250df", handled: "#23a55a" };
export const SERIES_COLORS = ["#2f6fd6", "#d9363e", "#23a55a", "#8250df", "#f0a92e", "#0b8a93"];
export const AXIS = { fontSize: 11, fill: "#5d6b7a" };
export const GRID = "#e6e9ee";

/** A chart number in the reader's format (`12,345`); anything else as text. For client components. */
export function useFmt(): (n: unknown) => string {
  const format = useFormatter();
  return (n: unknown) => (typeof n === "number" ? format.number(n) : typeof n === "string" ? n : Array.isArray(n) ? n.join(",") : "");
}
