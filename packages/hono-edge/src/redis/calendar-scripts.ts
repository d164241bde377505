/**
 * The Lua scripts of the Redis calendar store (see `redis-calendar-store.ts`), atomic like the session
 * store's: per calendar, a hash `calendar:{<tag>}:<id>` (`rec` the record as JSON without its lease, `owner` and `exp`
 * the lease, `join` the time after which a new request no longer joins it) and the mapping
 * `calendar-key:<calendar key>` -> id. Lease expiry compares against the server's `TIME`.
 */

const NOW = `local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * KEYS: mapping, hash of the candidate. ARGV: id, record JSON, owner, lease ms, expire-at (epoch ms), hash
 * key prefix. Returns `{0, record JSON, owner, lease expiry}` to join the live calendar of the key (running,
 * or completed before its `join`), else `{1}`: the candidate was stored (or was born expired).
 */
export const OPEN_CALENDAR = `${NOW}
local existing = redis.call('GET', KEYS[1])
if existing then
  -- Its hash: calendar:{<tag>}:<id>, the tag the id's first 4 hex digits (an id minted elsewhere is its own tag).
  local tag = string.match(existing, '^([0-9a-f][0-9a-f][0-9a-f][0-9a-f])%.') or existing
  local f = redis.call('HMGET', ARGV[6] .. '{' .. tag .. '}:' .. existing, 'rec', 'owner', 'exp', 'join')
  if f[1] and ((not f[4]) or f[4] == '' or tonumber(f[4]) > now) then return {0, f[1], f[2] or '', f[3] or ''} end
end
local life = tonumber(ARGV[5]) - now
if life <= 0 then return {1} end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[2], 'rec', ARGV[2], 'owner', ARGV[3], 'exp', now + tonumber(ARGV[4]))
redis.call('PEXPIRE', KEYS[2], life)
redis.call('SET', KEYS[1], ARGV[1], 'PX', life)
return {1}`;

/**
 * KEYS: hash, mapping. ARGV: owner, lease ms (0 gives the lease up), record JSON, expire-at (epoch ms),
 * join-until (epoch ms, '' for none: a running calendar, one whose days are searched again among them), id.
 * Writes the record if the lease is free, lapsed or `owner`'s; returns 1, or 0 (nothing written) when the
 * calendar is gone or another instance holds it.
 */
export const SAVE_CALENDAR = `${NOW}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local f = redis.call('HMGET', KEYS[1], 'owner', 'exp')
if f[1] and f[1] ~= '' and f[1] ~= ARGV[1] and (tonumber(f[2]) or 0) > now then return 0 end
local lease = tonumber(ARGV[2])
if lease > 0 then
  redis.call('HSET', KEYS[1], 'rec', ARGV[3], 'owner', ARGV[1], 'exp', now + lease)
else
  redis.call('HSET', KEYS[1], 'rec', ARGV[3])
  redis.call('HDEL', KEYS[1], 'owner', 'exp')
end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'join', ARGV[5]) else redis.call('HDEL', KEYS[1], 'join') end
local life = math.max(1, tonumber(ARGV[4]) - now)
redis.call('PEXPIRE', KEYS[1], life)
if redis.call('GET', KEYS[2]) == ARGV[6] then redis.call('PEXPIRE', KEYS[2], life) end
return 1`;
