import { NOW, PLACES } from "./lua-common.js";

/**
 * The caps' scripts for a Redis Cluster, where a search's keys and the running sets live in different slots:
 * each set is changed by a script of its own (the single-Redis open takes both places in its own step).
 */

/**
 * KEYS: a running set. ARGV: member (`<deadline>:<id>`), hold ms, cap (0: none). Takes (or renews) the member's
 * place until `min(deadline, now + hold)`: `{1}`, or `{0, ms}` when the set is full (the soonest running search
 * reaches its deadline in `ms`). A search past its deadline runs nothing and takes no place.
 */
export const RESERVE = `${NOW}
${PLACES}
local deadline = tonumber(string.match(ARGV[1], '^(%d+):')) or 0
if deadline <= now then return {1} end
local wait = full(KEYS[1], ARGV[1], tonumber(ARGV[3]))
if wait then return {0, wait} end
hold(KEYS[1], ARGV[1], math.min(deadline, now + tonumber(ARGV[2])))
return {1}`;

/**
 * KEYS: a running set. ARGV: hold ms, then the members the caller runs. Renews each place until
 * `min(deadline, now + hold)`, taking it again if it lapsed (the search does run: a count that forgot it, after an
 * outage or a failover, is put right); a member past its deadline leaves. Returns how many places are held.
 */
export const RENEW = `${NOW}
${PLACES}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = 0
for i = 2, #ARGV do
  local deadline = tonumber(string.match(ARGV[i], '^(%d+):')) or 0
  if deadline > now then
    hold(KEYS[1], ARGV[i], math.min(deadline, now + tonumber(ARGV[1])))
    held = held + 1
  else
    redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return held`;
