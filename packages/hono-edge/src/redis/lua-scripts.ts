/**
 * The Lua scripts of the Redis session store. Each runs atomically on the server, so the checks and writes
 * of one step (lease, version, change log, expiry, notification) can never interleave with another
 * instance's. Lease expiry compares against the server's `TIME`: one clock for every instance.
 *
 * Data model, per search (see `redis-keys.ts`): a hash `search:<id>` (`rec` the record's fixed part as
 * JSON, `v` version, `done`, `doneAt`, `owner`, `exp` lease expiry, `map` the key of the query mapping),
 * a list `changes:<id>` (one JSON change per version, each starting with `{"version":N`), and the mapping
 * `key:<search key>` -> id. Scripts touch keys derived from a prefix that they do not all receive in
 * `KEYS`: fine on one Redis; on a cluster, put a hash tag in the prefix (`{voar}:`) so every key shares a slot.
 */

const NOW = `local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** True when `owner` may write: the lease is free, expired or its own. Needs `now`. */
const HOLDS = `local function holds(h, owner)
  local f = redis.call('HMGET', h, 'owner', 'exp')
  return (not f[1]) or f[1] == '' or f[1] == owner or (tonumber(f[2]) or 0) <= now
end`;

/**
 * KEYS: mapping, hash, changes list of the candidate, the set of running searches, the tenant's set of
 * running searches. ARGV: id, record JSON, lease owner, lease expiry, completed (0/1), completedAt, expire-at
 * (epoch ms), hash key prefix, most running searches (0: no cap), most running searches of the tenant (0: no
 * cap), deadline (epoch ms).
 * Returns `{1}` when the candidate was stored (or was born expired), `{0, id, fields}` to join, and
 * `{2, scope, ms}` when a cap (`tenant` or `instance`) is reached: the soonest running search ends in `ms`.
 * The running sets (sorted by deadline) lose a search at its completion (APPEND) or its deadline.
 */
export const OPEN_OR_JOIN = `${NOW}
local existing = redis.call('GET', KEYS[1])
if existing then
  local fields = redis.call('HGETALL', ARGV[8] .. existing)
  if #fields > 0 then return {0, existing, fields} end
end
local life = tonumber(ARGV[7]) - now
if life <= 0 then return {1} end
local running = ARGV[5] ~= '1'
if running then
  local caps = {{KEYS[5], tonumber(ARGV[10]), 'tenant'}, {KEYS[4], tonumber(ARGV[9]), 'instance'}}
  for _, cap in ipairs(caps) do
    redis.call('ZREMRANGEBYSCORE', cap[1], '-inf', now)
    if cap[2] > 0 and redis.call('ZCARD', cap[1]) >= cap[2] then
      local soonest = redis.call('ZRANGE', cap[1], 0, 0, 'WITHSCORES')
      return {2, cap[3], math.max(0, tonumber(soonest[2]) - now)}
    end
  end
end
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HSET', KEYS[2], 'rec', ARGV[2], 'v', 0, 'done', ARGV[5], 'doneAt', ARGV[6], 'owner', ARGV[3], 'exp', ARGV[4], 'map', KEYS[1])
redis.call('PEXPIRE', KEYS[2], life)
redis.call('SET', KEYS[1], ARGV[1], 'PX', life)
if running then
  local deadline = tonumber(ARGV[11])
  redis.call('HSET', KEYS[2], 'run', KEYS[4], 'runTenant', KEYS[5])
  for i = 4, 5 do
    redis.call('ZADD', KEYS[i], deadline, ARGV[1])
    if redis.call('PTTL', KEYS[i]) < deadline - now then redis.call('PEXPIRE', KEYS[i], deadline - now) end
  end
end
return {1}`;

/**
 * KEYS: hash, changes list. ARGV: owner, lease ms, version, completed (0/1), change JSON, ttl ms, channel, id,
 * rejoin ms ('' for the whole TTL). On completion the search leaves the running sets, and the query mapping lives `min(ttl, rejoin)` more (deleted
 * at once for 0), so a new request for the query starts a new search once it is gone; the hash and the log
 * live the whole TTL, for polls by id.
 * Returns the list's new length, or -1 when the search is gone or complete, the lease is another's, or the
 * version does not follow the recorded one.
 */
export const APPEND = `${NOW}
${HOLDS}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local f = redis.call('HMGET', KEYS[1], 'done', 'v', 'map', 'run', 'runTenant')
if f[1] == '1' or not holds(KEYS[1], ARGV[1]) then return -1 end
local version = tonumber(ARGV[3])
if version <= (tonumber(f[2]) or 0) then return -1 end
local len = redis.call('RPUSH', KEYS[2], ARGV[5])
redis.call('HSET', KEYS[1], 'v', version, 'owner', ARGV[1], 'exp', now + tonumber(ARGV[2]))
if ARGV[4] == '1' then
  local ttl = tonumber(ARGV[6])
  redis.call('HSET', KEYS[1], 'done', '1', 'doneAt', now)
  if f[4] then redis.call('ZREM', f[4], ARGV[8]) end
  if f[5] then redis.call('ZREM', f[5], ARGV[8]) end
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
redis.call('PUBLISH', ARGV[7], version)
return len`;

/** KEYS: hash. ARGV: owner, lease ms. Returns 1 when the lease is now `owner`'s. */
export const ACQUIRE_LEASE = `${NOW}
${HOLDS}
if redis.call('EXISTS', KEYS[1]) == 0 or not holds(KEYS[1], ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'exp', now + tonumber(ARGV[2]))
return 1`;

/** KEYS: hash. ARGV: owner. Clears the lease if `owner` holds it. */
export const RELEASE_LEASE = `if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then redis.call('HDEL', KEYS[1], 'owner', 'exp') end
return 0`;

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
 * KEYS: mapping, hash, changes list. ARGV: id, record JSON, owner, lease ms, version, completed (0/1),
 * cumulative change JSON, ttl ms, expire-at of a running search (epoch ms), channel, rejoin ms ('' for
 * the whole TTL). Writes back a search the store lost (see `SessionStore.restore`): nothing when its hash
 * exists (returns 0) or when it would already have expired (returns -1). The mapping is only set if free.
 */
export const RESTORE = `${NOW}
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local done = ARGV[6] == '1'
local life = done and tonumber(ARGV[8]) or (tonumber(ARGV[9]) - now)
if life <= 0 then return -1 end
redis.call('DEL', KEYS[3])
redis.call('HSET', KEYS[2], 'rec', ARGV[2], 'v', ARGV[5], 'done', ARGV[6], 'doneAt', done and now or '', 'owner', ARGV[3], 'exp', now + tonumber(ARGV[4]), 'map', KEYS[1])
redis.call('RPUSH', KEYS[3], ARGV[7])
redis.call('PEXPIRE', KEYS[2], life)
redis.call('PEXPIRE', KEYS[3], life)
local mlife = life
if done and ARGV[11] ~= '' then mlife = math.min(life, tonumber(ARGV[11])) end
if mlife > 0 then redis.call('SET', KEYS[1], ARGV[1], 'PX', mlife, 'NX') end
redis.call('PUBLISH', ARGV[10], ARGV[5])
return 1`;
