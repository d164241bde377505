/**
 * Lua shared by the session store's scripts (see `lua-scripts.ts`, `lua-reservations.ts`): the server's clock,
 * the lease check, the primary's replication epoch, a search's hash from its id, and the places of the caps.
 */

/** `now`: the server's clock in ms (`TIME`), one clock for every instance. */
export const NOW = `local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** `holds(h, owner)`: true when `owner` may write: the lease is free, expired or its own. Needs `now`. */
export const HOLDS = `local function holds(h, owner)
  local f = redis.call('HMGET', h, 'owner', 'exp')
  return (not f[1]) or f[1] == '' or f[1] == owner or (tonumber(f[2]) or 0) <= now
end`;

/**
 * `epoch()`: this primary's replication id and how many replicas it has. The id changes when a replica is
 * promoted (or a Redis restarts), so a search hash stamped with another epoch was last written to a primary that
 * is gone: its owner has not confirmed it since, and the promoted replica may lack its last writes.
 */
export const EPOCH = `local function epoch()
  local info = redis.call('INFO', 'replication')
  return string.match(info, 'master_replid:(%w+)') or '', tonumber(string.match(info, 'connected_slaves:(%d+)')) or 0
end`;

/** `search_key(prefix, id)`: the hash of a search, as `redisKeys(...).search(id)` names it. */
export const SEARCH_KEY = `local function search_key(prefix, id)
  local tag = string.match(id, '^(%x%x%x%x)%.')
  if not tag or string.find(tag, '%u') then tag = id end
  return prefix .. '{' .. tag .. '}:' .. id
end`;

/**
 * The places of the caps: sorted sets of reservations, each member `<deadline ms>:<search id>` scored by when it
 * lapses (its holder renews it while the search runs). `full(key, member, cap)`: nil when `member` has or can take
 * a place, else the ms until the soonest running search's deadline. `hold(key, member, score)` takes or renews it.
 * Needs `now`.
 */
export const PLACES = `local function full(key, member, cap)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if cap <= 0 or redis.call('ZSCORE', key, member) or redis.call('ZCARD', key) < cap then return nil end
  local soonest
  for _, m in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    local d = tonumber(string.match(m, '^(%d+):'))
    if d and (not soonest or d < soonest) then soonest = d end
  end
  return math.max(0, (soonest or now) - now)
end
local function hold(key, member, score)
  redis.call('ZADD', key, score, member)
  if redis.call('PTTL', key) < score - now then redis.call('PEXPIRE', key, score - now + 1000) end
end`;

/**
 * `seen_since(h, ep)`: when the store first noticed (a reader, or a takeover) that a running search's owner has not
 * confirmed it on this primary (epoch `ep`): stamped in its `seen` field the first time. Its owner gets one lease
 * (`ls`) from then to confirm it before another instance may take it over. Needs `now`.
 */
export const SEEN_SINCE = `local function seen_since(h, ep)
  local s = redis.call('HGET', h, 'seen')
  local at = s and string.match(s, '^' .. ep .. '|(%d+)$')
  if at then return tonumber(at) end
  redis.call('HSET', h, 'seen', ep .. '|' .. now)
  return now
end`;
