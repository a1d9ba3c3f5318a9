/**
 * B-cubed precision, recall and F1 (Bagga & Baldwin 1998) of a clustering against labels: for
 * each item, the share of its cluster that has its label (precision) and the share of its label
 * that is in its cluster (recall), averaged over items. An item in no cluster (left alone) is a
 * cluster of its own, so leaving everything alone scores precision 1, not 0.
 */

/** B-cubed figures. */
export interface BCubed {
  precision: number;
  recall: number;
  f1: number;
}

/**
 * Score clusters against labels, item by item (same length arrays). A null cluster means the item
 * is alone. Throws on arrays of different length.
 */
export function bcubed(labels: readonly string[], clusters: readonly (number | string | null)[]): BCubed {
  if (labels.length !== clusters.length) throw new Error(`bcubed: ${labels.length} labels but ${clusters.length} clusters`);
  const n = labels.length;
  if (n === 0) return { precision: 1, recall: 1, f1: 1 };
  const clusterKey = clusters.map((c, i) => (c === null ? `\u0000alone:${i}` : `c:${String(c)}`));
  const clusterSize = new Map<string, number>();
  const labelSize = new Map<string, number>();
  const both = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    clusterSize.set(clusterKey[i]!, (clusterSize.get(clusterKey[i]!) ?? 0) + 1);
    labelSize.set(labels[i]!, (labelSize.get(labels[i]!) ?? 0) + 1);
    const k = `${clusterKey[i]}\u0000${labels[i]}`;
    both.set(k, (both.get(k) ?? 0) + 1);
  }
  let p = 0;
  let r = 0;
  for (let i = 0; i < n; i++) {
    const common = both.get(`${clusterKey[i]}\u0000${labels[i]}`)!;
    p += common / clusterSize.get(clusterKey[i]!)!;
    r += common / labelSize.get(labels[i]!)!;
  }
  const precision = p / n;
  const recall = r / n;
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}
