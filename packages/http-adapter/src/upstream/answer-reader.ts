/**
 * Reads the answers of one upstream search, poll after poll, without reading again what an earlier poll
 * already read. An upstream answers each poll with everything found so far, so without this every poll
 * would check and convert all earlier flights once more.
 *
 * An answer is split into its frame (the envelope and its result items with their offer lists emptied:
 * success, completion, lease, error) and the entries of those lists (`flights[]` in Mode A, `Ida[]` and
 * `Volta[]` in the Mode B shape). The frame is read at every poll, as is each entry not seen before; an
 * entry equal to one of the previous answer, in the same list of the same result item, keeps the offers
 * read from it then. Entries are compared in place first (upstreams append); when a list was reordered,
 * by their JSON text. An entry's offers depend on its result item (passenger counts, search token), so a
 * list whose item changed in anything but its progress members is read anew. The offers come out exactly
 * as core's reader gives them for the whole answer (same order, same ids).
 */
import { MalformedPayload, readListEntries, readUpstreamAnswer, type Offer, type ReadContext, type UpstreamAnswer } from "@voar/core";

/** The offer lists of a result item, in the order core's reader reads them. */
const OFFER_LISTS = ["flights", "Ida", "Volta"] as const;

/**
 * Members of a result item no offer is read from: progress and polling hints, errors, Mode A's `meta`
 * (counts and airports of the answer so far). They change from poll to poll without changing the offers.
 */
const PROGRESS_MEMBERS: ReadonlySet<string> = new Set(["ActiveProviders", "SemDisponibilidade", "LogErros", "ErroConsulta", "LeaseId", "meta"]);

type Json = Record<string, unknown>;

const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u);

/** Deep equality of two parsed JSON values. */
export const sameJson = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !sameJson((a as Json)[k], (b as Json)[k])) return false;
  }
  return true;
};

/** One entry of an offer list as read: its wire value and its offers (ids before the answer-wide suffixes). */
interface ReadEntry {
  readonly raw: unknown;
  readonly offers: readonly Offer[];
  /** Whether core's reader could not read it. */
  readonly unreadable: boolean;
  text?: string;
}

/** What is remembered of one offer list (`Data[i].Ida`...) of the previous answer. */
interface ListMemory {
  /** The item's members offers are read from, and the answer's search token, as text. */
  readonly context: string;
  readonly entries: readonly ReadEntry[];
  byText?: Map<string, ReadEntry>;
}

/** Suffixes repeated ids `~2`, `~3` in order, as core's reader does over an answer. */
const withUniqueIds = (offers: readonly Offer[]): Offer[] => {
  const seen = new Map<string, number>();
  return offers.map((o) => {
    const n = (seen.get(o.id) ?? 0) + 1;
    seen.set(o.id, n);
    return n === 1 ? o : { ...o, id: `${o.id}~${n}` };
  });
};

/** The members of a result item offers are read from (all but its offer lists and progress members), with the search token. */
const contextOf = (item: Json, searchToken: string | undefined): string => {
  const kept: Json = {};
  for (const [k, v] of Object.entries(item)) {
    if (!PROGRESS_MEMBERS.has(k) && !(OFFER_LISTS as readonly string[]).includes(k)) kept[k] = v;
  }
  return `${searchToken ?? ""}|${JSON.stringify(kept)}`;
};

const textOf = (entry: ReadEntry): string => (entry.text ??= JSON.stringify(entry.raw));

/** Reads the successive answers of one upstream search (one per instance). */
export class AnswerReader {
  private lists = new Map<string, ListMemory>();
  /** Entries read by core's reader so far (for tests and benchmarks). */
  entriesRead = 0;

  constructor(private readonly ctx: ReadContext) {}

  /**
   * Reads an answer as core's `readUpstreamAnswer` would, reusing the offers of the entries the previous
   * answer had. The answer's members other than `offers` come from its frame: `totalItems` and `skipped`
   * count only the entries read at this poll.
   */
  read(json: unknown): UpstreamAnswer | MalformedPayload {
    if (!isRecord(json) || !Array.isArray(json.Data)) return this.readWhole(json);
    const lists: { readonly key: string; readonly item: number; readonly member: (typeof OFFER_LISTS)[number]; readonly entries: readonly unknown[] }[] = [];
    const frameData = json.Data.map((item: unknown, i) => {
      if (!isRecord(item)) return item;
      let frame: Json | undefined;
      for (const member of OFFER_LISTS) {
        const entries = item[member];
        if (!Array.isArray(entries)) continue;
        frame ??= { ...item };
        frame[member] = [];
        lists.push({ key: `${i}.${member}`, item: i, member, entries });
      }
      return frame ?? item;
    });
    const frame = { ...json, Data: frameData };
    const head = readUpstreamAnswer(frame, this.ctx);
    // A result item core's reader refuses, lists aside, is rare: the whole answer is read as it is.
    if (head instanceof MalformedPayload || head.skipped.count > 0) return this.readWhole(json);

    const next = new Map<string, ListMemory>();
    const offers: Offer[] = [];
    let unreadable = false;
    for (const list of lists) {
      const item = frameData[list.item] as Json;
      const context = contextOf(item, head.searchToken);
      const before = this.lists.get(list.key);
      const known = before?.context === context ? before : undefined;
      let moved = false;
      const kept = list.entries.map((raw, j): ReadEntry | undefined => {
        if (!known) return undefined;
        const same = known.entries[j];
        if (same && sameJson(same.raw, raw)) return same;
        moved ||= j < known.entries.length;
        if (!moved) return undefined;
        known.byText ??= new Map(known.entries.map((e) => [textOf(e), e]));
        return known.byText.get(JSON.stringify(raw));
      });
      // The entries not seen before, read together (the item once, then each entry on its own).
      const fresh = kept.flatMap((e, j) => (e ? [] : [j]));
      const read = fresh.length === 0 ? [] : readListEntries(json.Data[list.item], list.item, list.member, fresh, this.ctx, head.searchToken);
      if (!read) return this.readWhole(json);
      this.entriesRead += fresh.length;
      fresh.forEach((j, k) => (kept[j] = { raw: list.entries[j], ...read[k]! }));
      const entries = kept as ReadEntry[];
      next.set(list.key, { context, entries });
      for (const e of entries) {
        unreadable ||= e.unreadable;
        offers.push(...e.offers);
      }
    }
    this.lists = next;
    // An answer none of whose entries could be read is malformed: core's reader says so, and why.
    if (offers.length === 0 && unreadable) return this.readWhole(json);
    return { ...head, offers: withUniqueIds(offers) };
  }

  private readWhole(json: unknown): UpstreamAnswer | MalformedPayload {
    this.lists = new Map();
    return readUpstreamAnswer(json, this.ctx);
  }
}
