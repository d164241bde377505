import { EPOCH, HOLDS, NOW, PLACES, SEARCH_KEY, SEEN_SINCE } from "./lua-common.js";

/**
 * The Lua scripts of the Redis session store. Each runs atomically on the server, so the checks and writes
 * of one step (lease, version, change log, expiry, notification) can never interleave with another
 * instance's. Lease expiry compares against the server's `TIME`: one clock for every instance.
 *
 * Data model, per search (see `redis-keys.ts`): a hash `search:{tag}:<id>` (`rec` the record's fixed part as
 * JSON, `v` version, `done`, `doneAt`, `owner`, `exp` lease expiry, `ls` lease length, `map` the key of the query
 * mapping, `ep` the replication epoch of the primary its owner last wrote it on, `seen` when the store noticed
 * that its owner had not confirmed it since a failover), a list `changes:{tag}:<id>` (one JSON change per
 * version, each starting with `{"version":N`), and the mapping `key:{tag}:<search key>` -> id. The tag is the
 * search key's (the id carries it), so every key a script touches is in one slot of a cluster.
 *
 * Versions are consecutive: an append must follow the recorded version exactly. After a failover the promoted
 * replica may lack the last changes its primary acknowledged; the next append then finds the store behind
 * (`-3`), and the owner, which holds the whole search in memory, writes it back (`RESTORE`).
 */

/**
 * KEYS: mapping, hash, changes list of the candidate; on one Redis also the set of running searches and the
 * tenant's (the caps, taken in this same step). ARGV: 1 id, 2 record JSON, 3 lease owner, 4 lease ms, 5 completed
 * (0/1), 6 completedAt, 7 expire-at (epoch ms), 8 hash key prefix, 9 `create` or `probe`, 10 most running searches
 * (0: no cap), 11 most running searches of the tenant, 12 the places' member (`<deadline>:<id>`), 13 lease expiry
 * (epoch ms).
 * Returns `{1}` when the candidate was stored (or was born expired), `{0, id, fields}` to join, `{2, scope, ms}`
 * when a cap (`tenant` or `instance`) is reached (the soonest running search's deadline is `ms` away), and `{3}`
 * for a `probe` that found nothing to join (a cluster takes the places next, then asks to `create`).
 */
export const OPEN_OR_JOIN = `${NOW}
${EPOCH}
${SEARCH_KEY}
${PLACES}
local existing = redis.call('GET', KEYS[1])
if existing then
  local fields = redis.call('HGETALL', search_key(ARGV[8], existing))
  if #fields > 0 then return {0, existing, fields} end
end
local life = tonumber(ARGV[7]) - now
if life <= 0 then return {1} end
if ARGV[5] ~= '1' then
  if ARGV[9] == 'probe' then return {3} end
  local member = ARGV[12]
  local deadline = tonumber(string.match(member, '^(%d+):')) or 0
  if #KEYS >= 5 and deadline > now then
    local caps = {{KEYS[5], tonumber(ARGV[11]), 'tenant'}, {KEYS[4], tonumber(ARGV[10]), 'instance'}}
    for _, cap in ipairs(caps) do
      local wait = full(cap[1], member, cap[2])
      if wait then return {2, cap[3], wait} end
    end
    local score = math.min(deadline, now + tonumber(ARGV[4]))
    for _, cap in ipairs(caps) do hold(cap[1], member, score) end
  end
end
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HSET', KEYS[2], 'rec', ARGV[2], 'v', 0, 'done', ARGV[5], 'doneAt', ARGV[6], 'owner', ARGV[3], 'exp', ARGV[13], 'ls', ARGV[4], 'map', KEYS[1], 'ep', (epoch()))
redis.call('PEXPIRE', KEYS[2], life)
redis.call('SET', KEYS[1], ARGV[1], 'PX', life)
return {1}`;

/**
 * KEYS: hash, changes list. ARGV: 1 owner, 2 lease ms, 3 version, 4 completed (0/1), 5 change JSON, 6 ttl ms,
 * 7 channel, 8 id, 9 rejoin ms ('' for the whole TTL), 10 `PUBLISH` or `SPUBLISH` (a cluster's sharded channels).
 * On completion the query mapping lives `min(ttl, rejoin)` more (deleted at once for 0), so a new request for the
 * query starts a new search once it is gone; the hash and the log live the whole TTL, for polls by id.
 * Returns `{length of the log, replicas}` when written, `{0, replicas}` when the store had this version already (a
 * retry whose reply was lost: the epoch is stamped, so a `WAIT` after it covers the state), `{-1}` when the search
 * is gone or complete, `{-2}` when the lease is another's, `{-3}` when versions before this one are missing.
 */
export const APPEND = `${NOW}
${HOLDS}
${EPOCH}
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
if not holds(KEYS[1], ARGV[1]) then return {-2} end
local f = redis.call('HMGET', KEYS[1], 'done', 'v', 'map')
local version = tonumber(ARGV[3])
local v = tonumber(f[2]) or 0
local ep, replicas = epoch()
if version <= v then
  redis.call('HSET', KEYS[1], 'ep', ep)
  return {0, replicas}
end
if f[1] == '1' then return {-1} end
if version > v + 1 then return {-3} end
local len = redis.call('RPUSH', KEYS[2], ARGV[5])
redis.call('HSET', KEYS[1], 'v', version, 'owner', ARGV[1], 'exp', now + tonumber(ARGV[2]), 'ls', ARGV[2], 'ep', ep)
if ARGV[4] == '1' then
  local ttl = tonumber(ARGV[6])
  redis.call('HSET', KEYS[1], 'done', '1', 'doneAt', now)
  if f[3] and redis.call('GET', f[3]) == ARGV[8] then
    local rejoin = tonumber(ARGV[9])
    if rejoin and rejoin <= 0 then redis.call('DEL', f[3])
    else redis.call('PEXPIRE', f[3], rejoin and math.min(ttl, rejoin) or ttl) end
  end
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
else
  local pttl = redis.call('PTTL', KEYS[1])
  if pttl > 0 then redis.call('PEXPIRE', KEYS[2], pttl) end
end
redis.call(ARGV[10], ARGV[7], version)
return {len, replicas}`;

/**
 * KEYS: hash. ARGV: owner, lease ms, the last version the owner wrote ('' for a takeover). Returns 1 when the
 * lease is now `owner`'s (and the epoch stamped: the owner confirms what the store holds), 0 when it is another's,
 * -1 when the search is gone, -3 when the store is behind what the owner wrote (nothing changed). A takeover of a
 * search its owner has not confirmed since a failover waits one lease from when the store noticed (the owner, if
 * alive, holds more than the promoted replica may have).
 */
export const ACQUIRE_LEASE = `${NOW}
${HOLDS}
${EPOCH}
${SEEN_SINCE}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if not holds(KEYS[1], ARGV[1]) then return 0 end
local ep = (epoch())
local f = redis.call('HMGET', KEYS[1], 'v', 'owner', 'ep', 'ls', 'done')
if ARGV[3] ~= '' then
  if (tonumber(f[1]) or 0) < tonumber(ARGV[3]) then return -3 end
elseif f[2] and f[2] ~= '' and f[2] ~= ARGV[1] and f[3] ~= ep and f[5] ~= '1' then
  if now < seen_since(KEYS[1], ep) + (tonumber(f[4]) or 0) then return 0 end
end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'exp', now + tonumber(ARGV[2]), 'ls', ARGV[2], 'ep', ep)
return 1`;

/** KEYS: hash. ARGV: owner. Clears the lease if `owner` holds it. */
export const RELEASE_LEASE = `if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then redis.call('HDEL', KEYS[1], 'owner', 'exp') end
return 0`;

/**
 * KEYS: hash. A search's fields: `{}` when there is none, `{fields}` when it is complete, `{fields, epoch, now,
 * noticed}` while it runs: the reader compares the epoch its owner stamped with this primary's, and when they
 * differ, `noticed` is when the store first noticed (the owner then has a lease from it to confirm the search).
 */
export const RECORD = `local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then return {} end
if redis.call('HGET', KEYS[1], 'done') == '1' then return {fields} end
${NOW}
${EPOCH}
${SEEN_SINCE}
local ep = (epoch())
local noticed = 0
if redis.call('HGET', KEYS[1], 'ep') ~= ep and redis.call('HGET', KEYS[1], 'owner') then noticed = seen_since(KEYS[1], ep) end
return {fields, ep, now, noticed}`;

const VERSION_OF = `local function version_of(item) return item and tonumber(string.match(item, '^{"version":(%d+)')) end`;

/**
 * KEYS: changes list. ARGV: after version. The changes from the one after `after` on, found by index
 * (versions are consecutive); when the log is not what that assumes, the whole log (the caller filters).
 */
export const CHANGES_AFTER = `${VERSION_OF}
local after = tonumber(ARGV[1])
local first = version_of(redis.call('LINDEX', KEYS[1], 0))
if not first then return {} end
if first > after then return redis.call('LRANGE', KEYS[1], 0, -1) end
local start = after - first + 1
local at = version_of(redis.call('LINDEX', KEYS[1], start))
if at == after + 1 then return redis.call('LRANGE', KEYS[1], start, -1) end
local last = version_of(redis.call('LINDEX', KEYS[1], -1))
if not at and last and last <= after then return {} end
return redis.call('LRANGE', KEYS[1], 0, -1)`;

/**
 * KEYS: changes list, hash. ARGV: count, first version, last version, cumulative change JSON. Replaces the
 * oldest `count` changes by one cumulative change, if they are still the ones the caller folded.
 */
export const COMPACT = `${VERSION_OF}
local n = tonumber(ARGV[1])
if version_of(redis.call('LINDEX', KEYS[1], 0)) ~= tonumber(ARGV[2]) then return 0 end
if version_of(redis.call('LINDEX', KEYS[1], n - 1)) ~= tonumber(ARGV[3]) then return 0 end
redis.call('LTRIM', KEYS[1], n, -1)
redis.call('LPUSH', KEYS[1], ARGV[4])
local pttl = redis.call('PTTL', KEYS[2])
if pttl > 0 then redis.call('PEXPIRE', KEYS[1], pttl) end
return 1`;

/**
 * KEYS: mapping, hash, changes list. ARGV: 1 id, 2 record JSON, 3 owner, 4 lease ms, 5 version, 6 completed
 * (0/1), 7 cumulative change JSON, 8 ttl ms, 9 expire-at of a running search (epoch ms), 10 channel, 11 rejoin ms
 * ('' for the whole TTL), 12 `PUBLISH` or `SPUBLISH`. Writes back a search the store lost, or holds at an older
 * version than its owner wrote (a failover lost its last writes), from the memory of the instance that runs it:
 * `{1, replicas}`. Nothing when the store has this version or a later one (`{0}`), the lease is another's (`{-2}`),
 * or the search would already have expired (`{-1}`). The mapping is only set if free.
 */
export const RESTORE = `${NOW}
${HOLDS}
${EPOCH}
if redis.call('EXISTS', KEYS[2]) == 1 then
  if (tonumber(redis.call('HGET', KEYS[2], 'v')) or 0) >= tonumber(ARGV[5]) then return {0} end
  if not holds(KEYS[2], ARGV[3]) then return {-2} end
end
local done = ARGV[6] == '1'
local life = done and tonumber(ARGV[8]) or (tonumber(ARGV[9]) - now)
if life <= 0 then return {-1} end
local ep, replicas = epoch()
redis.call('DEL', KEYS[3])
redis.call('HSET', KEYS[2], 'rec', ARGV[2], 'v', ARGV[5], 'done', ARGV[6], 'doneAt', done and now or '', 'owner', ARGV[3], 'exp', now + tonumber(ARGV[4]), 'map', KEYS[1], 'ep', ep)
redis.call('RPUSH', KEYS[3], ARGV[7])
redis.call('PEXPIRE', KEYS[2], life)
redis.call('PEXPIRE', KEYS[3], life)
local mlife = life
if done and ARGV[11] ~= '' then mlife = math.min(life, tonumber(ARGV[11])) end
if mlife > 0 then redis.call('SET', KEYS[1], ARGV[1], 'PX', mlife, 'NX') end
redis.call(ARGV[12], ARGV[10], ARGV[5])
return {1, replicas}`;
