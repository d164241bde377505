/**
 * The Lua scripts of the Redis alerts store (`redis-alert-store.ts`): each step of the watches' life and schedule
 * is one script, so it is atomic whatever the number of instances. Every key of the alerts shares one hash tag
 * (`{alerts}`, after the deployment's prefix: `ARGV[1]` is `<prefix>alerts:{alerts}:`), so on a Redis Cluster every
 * script runs in one slot. Under that base:
 * - `w:<id>` the watch (JSON); `wu:<id>` the keys of its days (set); `t:<tenant>` its tenant's watches (sorted by
 *   creation); `exp` every watch by its end (epoch ms);
 * - `u:<day key>` a day check (hash: `q` query JSON, `slot` checks done, `stable`, `last` result JSON, `n` watches,
 *   `w:<id>` -> tenant per watch, `owner`/`exp` the lease); `due` every day by its due time, or by its lease's end
 *   while leased (so a lapsed lease makes it due again by itself); `h:<day key>` the last checks (slot:owner:time);
 * - `d:<id>` a delivery (hash: `rec` JSON, `owner`/`exp`); `dq` the pending ones by next try (or lease end);
 *   `wd:<alert id>` a watch's deliveries, newest first;
 * - `e:<tenant>` the tenant's alerts (JSON lines), `es:<tenant>` their sequence, `ch:<tenant>` their channel;
 * - `s:<tenant>` the tenant's webhook secret (`cur`, `prev`, `until`); `stats` the average cost of a check.
 * Times are the server's (`TIME`).
 */

import { DELIVERIES_KEPT, EVENTS_KEPT } from "../alerts/store-limits.js";

const NOW = `local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** Removes a watch and its place in its days (a day nobody watches any more leaves the schedule). */
const UNWATCH = `
local function unwatch(base, id, tenant)
  for _, k in ipairs(redis.call('SMEMBERS', base .. 'wu:' .. id)) do
    local uk = base .. 'u:' .. k
    if redis.call('HDEL', uk, 'w:' .. id) == 1 and redis.call('HINCRBY', uk, 'n', -1) <= 0 then
      redis.call('DEL', uk, base .. 'h:' .. k)
      redis.call('ZREM', base .. 'due', k)
    end
  end
  redis.call('DEL', base .. 'wu:' .. id, base .. 'w:' .. id)
  redis.call('ZREM', base .. 't:' .. tenant, id)
  redis.call('ZREM', base .. 'exp', id)
end`;

/** KEYS: tenant's set, due. ARGV: base, id, record JSON, tenant, expires-at, max watches, then (day key, query JSON) pairs. 1 stored, 0 quota. */
export const CREATE_ALERT = `${NOW}
local base = ARGV[1]
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[6]) then return 0 end
redis.call('SET', base .. 'w:' .. ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('ZADD', base .. 'exp', ARGV[5], ARGV[2])
for i = 7, #ARGV, 2 do
  local k = ARGV[i]
  local uk = base .. 'u:' .. k
  if redis.call('EXISTS', uk) == 0 then
    redis.call('HSET', uk, 'q', ARGV[i + 1], 'slot', 0, 'stable', 0, 'n', 0)
    redis.call('ZADD', KEYS[2], now, k)
  end
  if redis.call('HSETNX', uk, 'w:' .. ARGV[2], ARGV[4]) == 1 then redis.call('HINCRBY', uk, 'n', 1) end
  redis.call('SADD', base .. 'wu:' .. ARGV[2], k)
end
return 1`;

/** KEYS: the watch. ARGV: base, id, tenant. 1 removed, 0 not the tenant's (or gone). */
export const REMOVE_ALERT = `${UNWATCH}
local rec = redis.call('GET', KEYS[1])
if not rec or cjson.decode(rec).tenant ~= ARGV[3] then return 0 end
unwatch(ARGV[1], ARGV[2], ARGV[3])
return 1`;

/** KEYS: exp. ARGV: base. Removes up to 200 watches past their end; how many. */
export const EXPIRE_ALERTS = `${NOW}
${UNWATCH}
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, 200)
for _, id in ipairs(ids) do
  local rec = redis.call('GET', ARGV[1] .. 'w:' .. id)
  if rec then unwatch(ARGV[1], id, cjson.decode(rec).tenant) else redis.call('ZREM', KEYS[1], id) end
end
return #ids`;

/**
 * KEYS: the watch, due. ARGV: base, id, tenant, rev read, new record JSON, delivery TTL ms, then per alert: its id,
 * its JSON, the delivery JSON ('' without a webhook). Writes only at revision \`rev\`; appends each alert to the
 * tenant's log, queues its delivery, announces it. 1 written, 0 changed meanwhile (or gone).
 */
export const UPDATE_ALERT = (publish: "PUBLISH" | "SPUBLISH") => `${NOW}
local PUBLISH_COMMAND = '${publish}'
local base = ARGV[1]
local cur = redis.call('GET', KEYS[1])
if not cur or cjson.decode(cur).rev ~= tonumber(ARGV[4]) then return 0 end
redis.call('SET', KEYS[1], ARGV[5])
for i = 7, #ARGV, 3 do
  local log = base .. 'e:' .. ARGV[3]
  local seq = redis.call('INCR', base .. 'es:' .. ARGV[3])
  redis.call('RPUSH', log, '{"seq":' .. seq .. ',"alertId":' .. cjson.encode(ARGV[2]) .. ',"event":' .. ARGV[i + 1] .. '}')
  redis.call('LTRIM', log, -${EVENTS_KEPT}, -1)
  if ARGV[i + 2] ~= '' then
    local dk = base .. 'd:' .. ARGV[i]
    redis.call('HSET', dk, 'rec', ARGV[i + 2])
    redis.call('PEXPIRE', dk, ARGV[6])
    redis.call('ZADD', base .. 'dq', now, ARGV[i])
    redis.call('LPUSH', base .. 'wd:' .. ARGV[2], ARGV[i])
    redis.call('LTRIM', base .. 'wd:' .. ARGV[2], 0, ${DELIVERIES_KEPT - 1})
  end
  redis.call(PUBLISH_COMMAND, base .. 'ch:' .. ARGV[3], seq)
end
return 1`;

/** KEYS: due. ARGV: base, owner, lease ms, max. The due days, each now leased: a list of {day key, its hash as pairs}. */
export const CLAIM_UNITS = `${NOW}
local out = {}
for _, k in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[4]))) do
  local uk = ARGV[1] .. 'u:' .. k
  if redis.call('EXISTS', uk) == 0 then
    redis.call('ZREM', KEYS[1], k)
  else
    local until_ = now + tonumber(ARGV[3])
    redis.call('HSET', uk, 'owner', ARGV[2], 'exp', until_)
    redis.call('ZADD', KEYS[1], until_, k)
    out[#out + 1] = { k, redis.call('HGETALL', uk) }
  end
end
return out`;

/** KEYS: due. ARGV: base, day key, owner, lease ms. 1 renewed, 0 not the owner's (or lapsed). */
export const RENEW_UNIT = `${NOW}
local uk = ARGV[1] .. 'u:' .. ARGV[2]
local f = redis.call('HMGET', uk, 'owner', 'exp')
if f[1] ~= ARGV[3] or (tonumber(f[2]) or 0) <= now then return 0 end
redis.call('HSET', uk, 'exp', now + tonumber(ARGV[4]))
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[2])
return 1`;

/**
 * KEYS: due, stats. ARGV: base, day key, owner, slot claimed, result JSON, stable, next in ms, requests, average
 * weight. Records the check if the lease is the owner's and the slot the next one; frees it; due again later.
 */
export const COMPLETE_UNIT = `${NOW}
local uk = ARGV[1] .. 'u:' .. ARGV[2]
local f = redis.call('HMGET', uk, 'owner', 'slot')
if f[1] ~= ARGV[3] or (tonumber(f[2]) or 0) + 1 ~= tonumber(ARGV[4]) then return 0 end
redis.call('HSET', uk, 'slot', ARGV[4], 'stable', ARGV[6], 'last', ARGV[5])
redis.call('HDEL', uk, 'owner', 'exp')
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[7]), ARGV[2])
local h = ARGV[1] .. 'h:' .. ARGV[2]
redis.call('RPUSH', h, ARGV[4] .. ':' .. ARGV[3] .. ':' .. now)
redis.call('LTRIM', h, -50, -1)
local n = redis.call('HINCRBY', KEYS[2], 'n', 1)
local avg = tonumber(redis.call('HGET', KEYS[2], 'avg') or '0')
local r = tonumber(ARGV[8])
if n == 1 then avg = r else avg = avg + tonumber(ARGV[9]) * (r - avg) end
redis.call('HSET', KEYS[2], 'avg', tostring(avg))
return 1`;

/** KEYS: due. ARGV: base, day key, owner, delay ms. Frees a held lease, the day due after the delay. */
export const RELEASE_UNIT = `${NOW}
local uk = ARGV[1] .. 'u:' .. ARGV[2]
if redis.call('HGET', uk, 'owner') ~= ARGV[3] then return 0 end
redis.call('HDEL', uk, 'owner', 'exp')
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[2])
return 1`;

/** KEYS: dq. ARGV: base, owner, lease ms, max. The due deliveries' JSON, each now leased. */
export const CLAIM_DELIVERIES = `${NOW}
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[4]))) do
  local dk = ARGV[1] .. 'd:' .. id
  local rec = redis.call('HGET', dk, 'rec')
  if not rec then
    redis.call('ZREM', KEYS[1], id)
  else
    redis.call('HSET', dk, 'owner', ARGV[2], 'exp', now + tonumber(ARGV[3]))
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), id)
    out[#out + 1] = rec
  end
end
return out`;

/** KEYS: dq. ARGV: base, id, owner, record JSON, pending ('1'/'0'), next try in ms, TTL ms. 1 written, 0 not the owner's. */
export const FINISH_DELIVERY = `${NOW}
local dk = ARGV[1] .. 'd:' .. ARGV[2]
if redis.call('HGET', dk, 'owner') ~= ARGV[3] then return 0 end
redis.call('HSET', dk, 'rec', ARGV[4])
redis.call('HDEL', dk, 'owner', 'exp')
if ARGV[5] == '1' then redis.call('ZADD', KEYS[1], now + tonumber(ARGV[6]), ARGV[2]) else redis.call('ZREM', KEYS[1], ARGV[2]) end
redis.call('PEXPIRE', dk, ARGV[7])
return 1`;

/** KEYS: a watch's deliveries list. ARGV: base. Their JSON, newest first. */
export const LIST_DELIVERIES = `
local out = {}
for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  local rec = redis.call('HGET', ARGV[1] .. 'd:' .. id, 'rec')
  if rec then out[#out + 1] = rec end
end
return out`;

/** KEYS: the secret's hash. ARGV: fresh secret, grace ms ('' reads, storing the fresh one only when there is none). Its fields. */
export const SECRET = `${NOW}
if ARGV[2] == '' then
  redis.call('HSETNX', KEYS[1], 'cur', ARGV[1])
else
  local cur = redis.call('HGET', KEYS[1], 'cur')
  if cur then redis.call('HSET', KEYS[1], 'prev', cur, 'until', now + tonumber(ARGV[2])) end
  redis.call('HSET', KEYS[1], 'cur', ARGV[1])
end
return redis.call('HMGET', KEYS[1], 'cur', 'prev', 'until')`;
