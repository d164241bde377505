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
import { MalformedPayload, readUpstreamAnswer, type Offer, type ReadContext, type UpstreamAnswer } from "@voar/core";

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

/**
 * Undoes the `~2`, `~3` suffixes core's reader gives repeated ids within one answer, so that the offers
 * of entries read one by one can be suffixed again over the whole answer.
 */
const unsuffixed = (offers: readonly Offer[]): Offer[] => {
  const seen = new Map<string, number>();
  return offers.map((o) => {
    const m = /^(.*)~(\d+)$/.exec(o.id);
    const base = m?.[1] !== undefined && seen.get(m[1]) === Number(m[2]) - 1 ? m[1] : o.id;
    seen.set(base, (seen.get(base) ?? 0) + 1);
    return base === o.id ? o : { ...o, id: base };
  });
};

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
      const entries = list.entries.map((raw, j): ReadEntry => {
        if (known) {
          const same = known.entries[j];
          if (same && sameJson(same.raw, raw)) return same;
          moved ||= j < known.entries.length;
          if (moved) {
            const text = JSON.stringify(raw);
            known.byText ??= new Map(known.entries.map((e) => [textOf(e), e]));
            const found = known.byText.get(text);
            if (found) return found;
          }
        }
        return this.readEntry(head, item, list.member, raw);
      });
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

  /**
   * Reads one entry in a least envelope: its result item (lists emptied) holding it alone, and the search
   * token and success of the whole answer (what the offers of an entry depend on beyond its item).
   */
  private readEntry(head: UpstreamAnswer, item: Json, member: string, raw: unknown): ReadEntry {
    this.entriesRead++;
    const envelope = { Success: head.success, ...(head.searchToken === undefined ? {} : { Token: head.searchToken }), Data: [{ ...item, [member]: [raw] }] };
    const read = readUpstreamAnswer(envelope, this.ctx);
    if (read instanceof MalformedPayload) return { raw, offers: [], unreadable: true };
    return { raw, offers: unsuffixed(read.offers), unreadable: read.skipped.count > 0 && read.offers.length === 0 };
  }
}
