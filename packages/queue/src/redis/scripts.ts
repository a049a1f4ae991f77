import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Every write that changes a task's status is one Lua script, so a status, the lane's sets and the
 * guards (`running` under the same worker) change together. Scripts build key names from the prefix
 * (ARGV[1]) the way keys.ts does: fine on a standalone Redis/Valkey, not on a cluster.
 */
export class LuaScript {
  readonly sha: string;

  constructor(readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(client: Redis, args: (string | number)[]): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, 0, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(this.lua, 0, ...args);
    }
  }
}

/**
 * A queued task's place in its lane's `pending` sorted set (lowest first) is its `rank`:
 * (100 − priority) · 2^40 + seq, with seq the store-wide creation counter. Higher priority first, then
 * oldest first, exact (below 2^53, so no float collisions); a task returning to the lane (retry,
 * release, recovery, a held group let through) keeps its rank and so its place. string.format keeps
 * all digits: Lua would print a number this large with 14 significant digits only.
 */
const header = `
local p = ARGV[1]
local function qkey(queue) return p .. ':queue:' .. queue end
local function tkey(id) return p .. ':task:' .. id end
local function rankOf(priority, seq) return string.format('%.0f', (100 - tonumber(priority)) * 1099511627776 + tonumber(seq)) end
`;

/** The write guard of a worker: the task is running under this worker's claim. */
const guard = `
local h = tkey(ARGV[2])
local f = redis.call('HMGET', h, 'status', 'worker_id', 'queue')
if f[1] ~= 'running' or f[2] ~= ARGV[3] then return false end
local qk = qkey(f[3])
`;

/**
 * ARGV: prefix, max pending, then per task the 13 arguments of records.ts `enqueueArgs`: queue, task
 * id, priority, operation, data, metadata, max tries, retry on crash, payload version, created at,
 * pausable, '=' + source id ('' for none), retry of ('' for none). Returns per task its sequence number, or 0 when its
 * lane is full. Wakes every lane it added to.
 */
export const enqueueScript = new LuaScript(`${header}
local max = tonumber(ARGV[2])
local out, woken = {}, {}
for i = 3, #ARGV, 13 do
  local queue, id = ARGV[i], ARGV[i + 1]
  local qk = qkey(queue)
  if redis.call('SCARD', qk .. ':queued') >= max then
    out[#out + 1] = 0
  else
    local seq = redis.call('INCR', p .. ':seq')
    local rank = rankOf(ARGV[i + 2], seq)
    local h = tkey(id)
    redis.call('HSET', h, 'task_id', id, 'queue', queue, 'operation', ARGV[i + 3], 'status', 'queued',
      'priority', ARGV[i + 2], 'data', ARGV[i + 4], 'metadata', ARGV[i + 5], 'attempts', '0',
      'max_tries', ARGV[i + 6], 'retry_on_crash', ARGV[i + 7], 'payload_version', ARGV[i + 8],
      'created_at', ARGV[i + 9], 'run_after', '0', 'pausable', ARGV[i + 10], 'seq', seq, 'rank', rank)
    if ARGV[i + 11] ~= '' then redis.call('HSET', h, 'source_id', string.sub(ARGV[i + 11], 2)) end
    if ARGV[i + 12] ~= '' then redis.call('HSET', h, 'retry_of', ARGV[i + 12]) end
    redis.call('SADD', qk .. ':queued', id)
    redis.call('ZADD', qk .. ':pending', rank, id)
    redis.call('ZADD', p .. ':tasks', seq, id)
    redis.call('ZADD', qk .. ':tasks', seq, id)
    woken[queue] = true
    out[#out + 1] = seq
  end
end
for queue in pairs(woken) do redis.call('PUBLISH', qkey(queue) .. ':wake', '1') end
return out
`);

/**
 * ARGV: prefix, queue, worker id, now, max, live global limit ('' for none), deferred to promote at
 * most, entries to scan at most, excluded operation count, operations, excluded source count, sources.
 *
 * One claim, atomically: deferred tasks due at `now` join `pending`; held groups the filter no longer
 * excludes return to `pending`; then up to `max` tasks (fewer when the lane's running set is at its
 * global limit) go from the front of `pending` to running under the worker. With a filter, `pending`
 * is scanned from the front and each excluded task moves to the held group of its operation
 * (`op:<name>`) or source (`source:<id>`), a sorted set by rank, so it costs nothing while excluded.
 * Returns {more, hash, hash, ...}: more = 1 when the scan budget ran out before `max`; each claimed
 * task's hash as one JSON object, which costs the client one JSON.parse instead of parsing 40-odd
 * bulk strings.
 */
export const claimScript = new LuaScript(`${header}
local qk = qkey(ARGV[2])
local worker, now, max = ARGV[3], ARGV[4], tonumber(ARGV[5])
local pending, queued, running = qk .. ':pending', qk .. ':queued', qk .. ':running'
local ops, sources, excluding = {}, {}, false
local i = 10
for _ = 1, tonumber(ARGV[9]) do ops[ARGV[i]] = true; excluding = true; i = i + 1 end
local sourceCount = tonumber(ARGV[i]); i = i + 1
for _ = 1, sourceCount do sources[ARGV[i]] = true; excluding = true; i = i + 1 end

local due = redis.call('ZRANGEBYSCORE', qk .. ':deferred', '-inf', now, 'LIMIT', 0, tonumber(ARGV[7]))
for _, id in ipairs(due) do
  redis.call('ZREM', qk .. ':deferred', id)
  local rank = redis.call('HGET', tkey(id), 'rank')
  if rank then redis.call('ZADD', pending, rank, id) end
end

for _, group in ipairs(redis.call('SMEMBERS', qk .. ':held')) do
  local kind, name = string.match(group, '^(%a+):(.*)$')
  if not ((kind == 'op' and ops[name]) or (kind == 'source' and sources[name])) then
    local groupKey = qk .. ':held:' .. group
    redis.call('ZUNIONSTORE', pending, 2, pending, groupKey, 'AGGREGATE', 'MIN')
    redis.call('DEL', groupKey)
    redis.call('SREM', qk .. ':held', group)
  end
end

local limit = ARGV[6]
local stored = redis.call('GET', qk .. ':limit')
if limit ~= '' and limit ~= stored then redis.call('SET', qk .. ':limit', limit) end
if limit == '' then limit = stored end
if limit then
  local room = tonumber(limit) - redis.call('SCARD', running)
  if room < max then max = room end
end

local out = {0}
local function take(id, h)
  local flat = redis.call('HGETALL', h)
  local hash = {}
  for k = 1, #flat, 2 do hash[flat[k]] = flat[k + 1] end
  if hash.status ~= 'queued' then
    redis.call('SREM', queued, id)
    return
  end
  hash.attempts = tostring(tonumber(hash.attempts) + 1)
  hash.status, hash.worker_id, hash.started_at, hash.heartbeat_at = 'running', worker, now, now
  redis.call('HSET', h, 'status', 'running', 'worker_id', worker, 'started_at', now, 'heartbeat_at', now, 'attempts', hash.attempts)
  redis.call('SMOVE', queued, running, id)
  out[#out + 1] = cjson.encode(hash)
end

if max <= 0 then return out end
if not excluding then
  while #out - 1 < max do
    local popped = redis.call('ZPOPMIN', pending, max - (#out - 1))
    if #popped == 0 then break end
    for k = 1, #popped, 2 do take(popped[k], tkey(popped[k])) end
  end
  return out
end

local budget = tonumber(ARGV[8])
while #out - 1 < max and budget > 0 do
  local window = math.min(budget, max - (#out - 1) + 32)
  local front = redis.call('ZRANGE', pending, 0, window - 1, 'WITHSCORES')
  if #front == 0 then break end
  for k = 1, #front, 2 do
    local id, rank = front[k], front[k + 1]
    local h = tkey(id)
    budget = budget - 1
    redis.call('ZREM', pending, id)
    local f = redis.call('HMGET', h, 'status', 'operation', 'source_id')
    local group = false
    if f[2] and ops[f[2]] then group = 'op:' .. f[2] elseif f[3] and sources[f[3]] then group = 'source:' .. f[3] end
    if group and f[1] == 'queued' then
      redis.call('ZADD', qk .. ':held:' .. group, rank, id)
      redis.call('SADD', qk .. ':held', group)
      redis.call('HSET', h, 'held', group)
    else
      take(id, h)
      if #out - 1 >= max then break end
    end
  end
end
if #out - 1 < max and budget <= 0 and redis.call('ZCARD', pending) > 0 then out[1] = 1 end
return out
`);

/**
 * ARGV: prefix, then per task: task id, worker id, now, result JSON, retain until, GC ttl ms.
 * Returns per task 1, or 0 when the write guard refused.
 */
export const completeScript = new LuaScript(`${header}
local out = {}
for i = 2, #ARGV, 6 do
  local id, now, retainUntil = ARGV[i], ARGV[i + 2], ARGV[i + 4]
  local h = tkey(id)
  local f = redis.call('HMGET', h, 'status', 'worker_id', 'queue')
  if f[1] == 'running' and f[2] == ARGV[i + 1] then
    local qk = qkey(f[3])
    redis.call('HSET', h, 'status', 'completed', 'completed_at', now, 'retain_until', retainUntil)
    redis.call('HDEL', h, 'error', 'error_type')
    redis.call('SREM', qk .. ':running', id)
    redis.call('ZADD', qk .. ':finished', now, id)
    redis.call('ZADD', p .. ':retention', retainUntil, id)
    redis.call('SET', h .. ':result', ARGV[i + 3], 'PX', ARGV[i + 5])
    redis.call('PEXPIRE', h, ARGV[i + 5])
    out[#out + 1] = 1
  else
    out[#out + 1] = 0
  end
end
return out
`);

/**
 * ARGV: prefix, task id, worker id, now, message, type, retry at ('' for none), retain until, GC ttl ms.
 * Returns {queue, 'failed' | 'queued'} or nil. A retry waits in `deferred` until a claim's `now`
 * reaches it; one due already wakes the lane.
 */
export const failScript = new LuaScript(`${header}${guard}
redis.call('HSET', h, 'error', ARGV[5], 'error_type', ARGV[6])
redis.call('SREM', qk .. ':running', ARGV[2])
if ARGV[7] == '' then
  redis.call('HSET', h, 'status', 'failed', 'completed_at', ARGV[4], 'retain_until', ARGV[8])
  redis.call('ZADD', qk .. ':finished', ARGV[4], ARGV[2])
  redis.call('ZADD', p .. ':retention', ARGV[8], ARGV[2])
  redis.call('PEXPIRE', h, ARGV[9])
  return {f[3], 'failed'}
end
redis.call('HSET', h, 'status', 'queued', 'run_after', ARGV[7])
redis.call('HDEL', h, 'worker_id', 'heartbeat_at')
redis.call('SADD', qk .. ':queued', ARGV[2])
redis.call('ZADD', qk .. ':deferred', ARGV[7], ARGV[2])
if tonumber(ARGV[7]) <= tonumber(ARGV[4]) then redis.call('PUBLISH', qk .. ':wake', '1') end
return {f[3], 'queued'}
`);

/**
 * ARGV: prefix, task id, worker id, run after, real now. Back to queued without counting the attempt,
 * in `deferred` until a claim's `now` reaches run_after; returns the queue or nil.
 */
export const releaseScript = new LuaScript(`${header}${guard}
redis.call('HSET', h, 'status', 'queued', 'run_after', ARGV[4])
redis.call('HINCRBY', h, 'attempts', -1)
redis.call('HDEL', h, 'worker_id', 'heartbeat_at')
redis.call('SMOVE', qk .. ':running', qk .. ':queued', ARGV[2])
redis.call('ZADD', qk .. ':deferred', ARGV[4], ARGV[2])
if tonumber(ARGV[4]) <= tonumber(ARGV[5]) then redis.call('PUBLISH', qk .. ':wake', '1') end
return f[3]
`);

/** ARGV: prefix, worker id, now, task ids. */
export const heartbeatScript = new LuaScript(`${header}
for i = 4, #ARGV do
  local h = tkey(ARGV[i])
  local f = redis.call('HMGET', h, 'status', 'worker_id')
  if f[1] == 'running' and f[2] == ARGV[2] then redis.call('HSET', h, 'heartbeat_at', ARGV[3]) end
end
return 0
`);

/**
 * ARGV: prefix, now, cancel flag ttl ms, task ids. Per id: 'not_found', 'finished' or 'cancelled'.
 * A cancelled task leaves whichever of pending, deferred, its held group or running holds it, so a
 * running one frees its lane slot at once.
 */
export const cancelScript = new LuaScript(`${header}
local out = {}
for i = 4, #ARGV do
  local id = ARGV[i]
  local h = tkey(id)
  local f = redis.call('HMGET', h, 'status', 'queue', 'held')
  if not f[1] then
    out[#out + 1] = 'not_found'
  elseif f[1] ~= 'queued' and f[1] ~= 'running' then
    out[#out + 1] = 'finished'
  else
    local qk = qkey(f[2])
    redis.call('HSET', h, 'status', 'cancelled', 'completed_at', ARGV[2])
    redis.call('SREM', qk .. ':' .. f[1], id)
    redis.call('ZREM', qk .. ':pending', id)
    redis.call('ZREM', qk .. ':deferred', id)
    if f[3] then
      redis.call('ZREM', qk .. ':held:' .. f[3], id)
      redis.call('HDEL', h, 'held')
    end
    redis.call('ZADD', qk .. ':finished', ARGV[2], id)
    redis.call('SET', p .. ':cancel:' .. id, '1', 'PX', ARGV[3])
    out[#out + 1] = 'cancelled'
  end
end
return out
`);

/**
 * ARGV: prefix, queue, now, retain until, GC ttl ms, crash limit, message of an unrecoverable crash,
 * message of a crash the task runs once more after, then (task id, worker id seen, post-mortem) triples
 * of running entries the caller judged abandoned. Per id whose state still matches:
 * {id, 'orphan' | 'requeued' | 'failed'}. The task's crash count goes up by one; at the limit it fails
 * as crashed_twice with the post-mortem. A requeued task returns to `pending` at its rank (it is in no
 * other set, so it cannot run twice) and wakes the lane.
 */
export const recoverScript = new LuaScript(`${header}
local qk = qkey(ARGV[2])
local out = {}
local function fail(h, id, message, errorType, crashes)
  redis.call('HSET', h, 'status', 'failed', 'completed_at', ARGV[3], 'retain_until', ARGV[4],
    'error', message, 'error_type', errorType, 'crashes', crashes)
  redis.call('ZADD', qk .. ':finished', ARGV[3], id)
  redis.call('ZADD', p .. ':retention', ARGV[4], id)
  redis.call('PEXPIRE', h, ARGV[5])
  out[#out + 1] = {id, 'failed'}
end
for i = 9, #ARGV, 3 do
  local id, worker = ARGV[i], ARGV[i + 1]
  local h = tkey(id)
  local f = redis.call('HMGET', h, 'status', 'worker_id', 'retry_on_crash', 'attempts', 'max_tries', 'rank', 'crashes')
  if not f[1] or (f[1] ~= 'running' and worker == '') then
    if redis.call('SREM', qk .. ':running', id) == 1 and not f[1] then out[#out + 1] = {id, 'orphan'} end
  elseif f[1] == 'running' and f[2] == worker then
    redis.call('SREM', qk .. ':running', id)
    local crashes = (tonumber(f[7]) or 0) + 1
    if crashes >= tonumber(ARGV[6]) then
      fail(h, id, ARGV[i + 2], 'crashed_twice', crashes)
    elseif f[3] == '1' and tonumber(f[4]) < tonumber(f[5]) then
      redis.call('HSET', h, 'status', 'queued', 'run_after', '0', 'crashes', crashes, 'error', ARGV[8], 'error_type', 'worker_crashed')
      redis.call('HDEL', h, 'worker_id', 'heartbeat_at')
      redis.call('SADD', qk .. ':queued', id)
      redis.call('ZADD', qk .. ':pending', f[6], id)
      redis.call('PUBLISH', qk .. ':wake', '1')
      out[#out + 1] = {id, 'requeued'}
    else
      fail(h, id, ARGV[7], 'worker_crashed', crashes)
    end
  end
end
return out
`);

/**
 * ARGV: prefix, every queue name (comma-separated), task ids. Deletes terminal tasks and their index
 * entries (also of tasks whose hash already expired); returns how many hashes it deleted. The cancel
 * flag stays until its own TTL: a worker may still be winding the task down.
 */
export const deleteScript = new LuaScript(`${header}
local queues = {}
for name in string.gmatch(ARGV[2], '[^,]+') do queues[#queues + 1] = name end
local deleted = 0
for i = 3, #ARGV do
  local id = ARGV[i]
  local h = tkey(id)
  local status = redis.call('HGET', h, 'status')
  redis.call('ZREM', p .. ':retention', id)
  for _, queue in ipairs(queues) do redis.call('ZREM', qkey(queue) .. ':finished', id) end
  if status ~= 'queued' and status ~= 'running' then
    deleted = deleted + redis.call('DEL', h)
    redis.call('DEL', h .. ':result')
    redis.call('ZREM', p .. ':tasks', id)
    for _, queue in ipairs(queues) do redis.call('ZREM', qkey(queue) .. ':tasks', id) end
  end
end
return deleted
`);

/** ARGV: prefix, task id, new task id. */
export const markRetriedScript = new LuaScript(`${header}
if redis.call('EXISTS', tkey(ARGV[2])) == 1 then redis.call('HSET', tkey(ARGV[2]), 'retried_to', ARGV[3]) end
return 0
`);
