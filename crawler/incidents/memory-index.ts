/**
 * The in-memory {@link ClusterIndex}: the same inverted indexes the database keeps (IncidentBand,
 * IncidentTerm, IncidentDocFreq), in Maps. The benchmark runs the clusterer on it; a test feeds
 * the same posts to it and to the database index and checks both decide the same.
 */
import type { BandHit, ClusterIndex, ClusterPost, IndexedMembership, MemberEntry, TermHit } from "./clusterer";
import type { SimHash } from "./simhash";

interface MemIncident {
  id: number;
  accepting: boolean;
  firstSeen: number;
  lastSeen: number;
  weights: Map<string, number>;
  norm2: number;
  mass: number;
  members: number[];
}

/** The clusterer's index in memory (one process, nothing persisted). */
export class MemoryIndex implements ClusterIndex {
  private docs = 0;
  private readonly df = new Map<string, number>();
  private readonly incidents = new Map<number, MemIncident>();
  private readonly memberOf = new Map<number, number>();
  private readonly bands = new Map<string, { key: number; incidentId: number; time: number; hash: SimHash }[]>();
  private readonly postings = new Map<string, number[]>();
  private nextId = 1;

  docFreq(terms: readonly string[]): Promise<{ docs: number; df: number[] }> {
    return Promise.resolve({ docs: this.docs, df: terms.map((t) => this.df.get(t) ?? 0) });
  }

  addDoc(terms: readonly string[]): Promise<void> {
    this.docs++;
    for (const t of terms) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    return Promise.resolve();
  }

  membership(key: number): Promise<IndexedMembership | null> {
    const id = this.memberOf.get(key);
    if (id === undefined) return Promise.resolve(null);
    return Promise.resolve({ incidentId: id, accepting: this.incidents.get(id)?.accepting ?? false });
  }

  seen(key: number): Promise<boolean> {
    return Promise.resolve(this.memberOf.has(key));
  }

  bandHits(bands: readonly string[], from: number, to: number): Promise<BandHit[]> {
    const out: BandHit[] = [];
    const found = new Set<number>();
    for (const b of bands) {
      for (const e of this.bands.get(b) ?? []) {
        if (found.has(e.key) || e.time < from || e.time > to || !this.incidents.get(e.incidentId)?.accepting) continue;
        found.add(e.key);
        out.push({ key: e.key, incidentId: e.incidentId, hash: e.hash });
      }
    }
    return Promise.resolve(out);
  }

  termHits(terms: readonly string[], from: number, to: number, perTerm: number): Promise<TermHit[]> {
    const out: TermHit[] = [];
    for (const term of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      let taken = 0;
      for (let i = list.length - 1; i >= 0 && taken < perTerm; i--) {
        const inc = this.incidents.get(list[i]!)!;
        if (!inc.accepting || inc.lastSeen < from || inc.firstSeen > to) continue;
        out.push({ incidentId: inc.id, term, weight: inc.weights.get(term)! });
        taken++;
      }
    }
    return Promise.resolve(out);
  }

  norms(incidentIds: readonly number[]): Promise<Map<number, number>> {
    return Promise.resolve(new Map(incidentIds.map((id) => [id, this.incidents.get(id)?.norm2 ?? 0])));
  }

  lastSeen(incidentIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const id of incidentIds) {
      const inc = this.incidents.get(id);
      if (inc) out.set(id, inc.lastSeen);
    }
    return Promise.resolve(out);
  }

  masses(incidentIds: readonly number[]): Promise<Map<number, number>> {
    return Promise.resolve(new Map(incidentIds.map((id) => [id, this.incidents.get(id)?.mass ?? 0])));
  }

  async create(entry: MemberEntry): Promise<number> {
    const id = this.nextId++;
    this.incidents.set(id, { id, accepting: true, firstSeen: entry.post.time, lastSeen: entry.post.time, weights: new Map(), norm2: 0, mass: 0, members: [] });
    await this.join(id, entry);
    return id;
  }

  async join(incidentId: number, entry: MemberEntry): Promise<void> {
    const key = entry.post.key;
    this.memberOf.set(key, incidentId);
    this.incidents.get(incidentId)!.members.push(key);
    await this.indexMember(incidentId, entry);
  }

  indexMember(incidentId: number, entry: MemberEntry): Promise<void> {
    const inc = this.incidents.get(incidentId)!;
    const key = entry.post.key;
    inc.mass += entry.weight;
    inc.firstSeen = Math.min(inc.firstSeen, entry.post.time);
    inc.lastSeen = Math.max(inc.lastSeen, entry.post.time);
    for (const [t, w] of entry.vector) {
      const old = inc.weights.get(t);
      if (old === undefined) {
        const list = this.postings.get(t);
        if (list) list.push(incidentId);
        else this.postings.set(t, [incidentId]);
      }
      const nw = (old ?? 0) + w;
      inc.weights.set(t, nw);
      inc.norm2 += nw * nw - (old ?? 0) * (old ?? 0);
    }
    if (entry.hash) {
      for (const b of entry.bands) {
        const e = { key, incidentId, time: entry.post.time, hash: entry.hash };
        const list = this.bands.get(b);
        if (list) list.push(e);
        else this.bands.set(b, [e]);
      }
    }
    return Promise.resolve();
  }

  leaveAlone(_post: ClusterPost): Promise<void> {
    // As on the database: nothing is kept of a post left alone.
    return Promise.resolve();
  }

  /** Mark an incident as taking no more posts (a reviewer's dismissal, in tests). */
  dismiss(incidentId: number): void {
    const inc = this.incidents.get(incidentId);
    if (inc) inc.accepting = false;
  }

  /** Members of each incident, for the benchmark's output. */
  incidentSizes(): Map<number, number> {
    return new Map([...this.incidents].map(([id, i]) => [id, i.members.length]));
  }
}
