import * as HashMap from "effect/HashMap";
import * as Option from "effect/Option";

/**
 * The members of a group: member key -> offer id, immutable. Most groups have a handful of members (the
 * sellers of one flight, the flights at one price), kept as one flat array `[key0, id0, key1, id1, ...]`
 * copied on change (by `slice` and `concat`, which size the copy exactly, where a spread or a push leaves
 * room to grow): about 16 bytes per member, where a persistent map takes about 120 (an entry node and
 * an `Option` per value, plus its inner nodes). Past {@link SMALL_MEMBERS} members a group switches to the
 * persistent map, so a change to a large group stays O(log n).
 */
export type Members = readonly string[] | HashMap.HashMap<string, string>;

/** Members kept in a flat array at most. */
export const SMALL_MEMBERS = 16;

const isSmall = (m: Members): m is readonly string[] => Array.isArray(m);

/** A group's members when it has one. */
export const oneMember = (key: string, id: string): Members => [key, id];

/** The offer id of a member; undefined when the key is not a member. */
export const memberId = (m: Members, key: string): string | undefined => {
  if (!isSmall(m)) return Option.getOrUndefined(HashMap.get(m, key));
  for (let i = 0; i < m.length; i += 2) if (m[i] === key) return m[i + 1];
  return undefined;
};

/** Whether the key is a member. */
export const hasMember = (m: Members, key: string): boolean => memberId(m, key) !== undefined;

/** Number of members. */
export const memberCount = (m: Members): number => (isSmall(m) ? m.length / 2 : HashMap.size(m));

/** The members with `key` set to `id` (added, or replacing its id). */
export const setMember = (m: Members, key: string, id: string): Members => {
  if (!isSmall(m)) return HashMap.set(m, key, id);
  for (let i = 0; i < m.length; i += 2) {
    if (m[i] !== key) continue;
    if (m[i + 1] === id) return m;
    const next = m.slice();
    next[i + 1] = id;
    return next;
  }
  if (m.length / 2 < SMALL_MEMBERS) return m.concat(key, id);
  return HashMap.mutate(HashMap.empty<string, string>(), (map) => {
    for (let i = 0; i < m.length; i += 2) HashMap.set(map, m[i]!, m[i + 1]!);
    HashMap.set(map, key, id);
  });
};

/** The members without `key`. */
export const removeMember = (m: Members, key: string): Members => {
  if (!isSmall(m)) return HashMap.remove(m, key);
  const i = m.findIndex((k, at) => at % 2 === 0 && k === key);
  return i < 0 ? m : m.slice(0, i).concat(m.slice(i + 2));
};

/** The offer ids of the members (in no particular order). */
export const memberIds = (m: Members): Iterable<string> => {
  if (!isSmall(m)) return HashMap.values(m);
  const ids: string[] = [];
  for (let i = 1; i < m.length; i += 2) ids.push(m[i]!);
  return ids;
};
