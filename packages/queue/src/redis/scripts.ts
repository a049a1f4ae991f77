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

const header = `
local p = ARGV[1]
local function qkey(queue) return p .. ':queue:' .. queue end
local function tkey(id) return p .. ':task:' .. id end
`;

/** The write guard of a worker: the task is running under this worker's claim. */
const guard = `
local h = tkey(ARGV[2])
local f = redis.call('HMGET', h, 'status', 'worker_id', 'queue')
if f[1] ~= 'running' or f[2] ~= ARGV[3] then return false end
local qk = qkey(f[3])
`;

/**
 * ARGV: prefix, max pending, then per task: queue, task id, field count, field/value pairs.
 * Returns per task its sequence number, or 0 when its lane is full.
 */
export const enqueueScript = new LuaScript(`${header}
local max = tonumber(ARGV[2])
local out = {}
local i = 3
while i <= #ARGV do
  local qk, id, n = qkey(ARGV[i]), ARGV[i + 1], tonumber(ARGV[i + 2])
  if redis.call('SCARD', qk .. ':queued') >= max then
    out[#out + 1] = 0
  else
    local seq = redis.call('INCR', p .. ':seq')
    redis.call('HSET', tkey(id), 'seq', seq, unpack(ARGV, i + 3, i + 2 + n))
    redis.call('SADD', qk .. ':queued', id)
    redis.call('ZADD', p .. ':tasks', seq, id)
    redis.call('ZADD', qk .. ':tasks', seq, id)
    out[#out + 1] = seq
  end
  i = i + 3 + n
end
return out
`);

/** ARGV: prefix, then (queue, task id) pairs. Takes back enqueues whose bullmq jobs could not be added. */
export const discardScript = new LuaScript(`${header}
for i = 2, #ARGV, 2 do
  local qk, id = qkey(ARGV[i]), ARGV[i + 1]
  redis.call('DEL', tkey(id))
  redis.call('SREM', qk .. ':queued', id)
  redis.call('ZREM', p .. ':tasks', id)
  redis.call('ZREM', qk .. ':tasks', id)
end
return 0
`);

/**
 * ARGV: prefix, queue, now, excluded operations (JSON), excluded sources (JSON), limit.
 * Takes the deferred tasks due at `now` and the held-back groups the filter no longer excludes, and
 * returns their ids so their bullmq jobs get promoted.
 */
export const prepareClaimScript = new LuaScript(`${header}
local qk = qkey(ARGV[2])
local ready = redis.call('ZRANGEBYSCORE', qk .. ':deferred', '-inf', ARGV[3], 'LIMIT', 0, tonumber(ARGV[6]))
if #ready > 0 then redis.call('ZREM', qk .. ':deferred', unpack(ready)) end
local excluded = {}
for _, name in ipairs(cjson.decode(ARGV[4])) do excluded['op:' .. name] = true end
for _, id in ipairs(cjson.decode(ARGV[5])) do excluded['source:' .. id] = true end
for _, group in ipairs(redis.call('SMEMBERS', qk .. ':held')) do
  if not excluded[group] then
    local groupKey = qk .. ':held:' .. group
    for _, id in ipairs(redis.call('SMEMBERS', groupKey)) do
      if redis.call('HGET', tkey(id), 'held') == group then
        redis.call('HDEL', tkey(id), 'held')
        ready[#ready + 1] = id
      end
    end
    redis.call('DEL', groupKey)
    redis.call('SREM', qk .. ':held', group)
  end
end
return ready
`);

/**
 * ARGV: prefix, queue, worker id, now, excluded operations (JSON), excluded sources (JSON), job ids.
 * Decides each fetched job: {'run', hash} (now running), {'held'} (the filter excludes it: parked in
 * a held group), {'defer', ms} (not due yet), {'drop'} (no longer queued: cancelled or gone).
 */
export const claimScript = new LuaScript(`${header}
local qk = qkey(ARGV[2])
local worker, now = ARGV[3], ARGV[4]
local ops, sources = {}, {}
for _, name in ipairs(cjson.decode(ARGV[5])) do ops[name] = true end
for _, id in ipairs(cjson.decode(ARGV[6])) do sources[id] = true end
local out = {}
for i = 7, #ARGV do
  local id = ARGV[i]
  local h = tkey(id)
  local f = redis.call('HMGET', h, 'status', 'operation', 'source_id', 'run_after', 'held')
  local group = false
  if f[2] and ops[f[2]] then group = 'op:' .. f[2] elseif f[3] and sources[f[3]] then group = 'source:' .. f[3] end
  if f[1] ~= 'queued' then
    out[#out + 1] = {'drop'}
  elseif tonumber(f[4]) > tonumber(now) then
    redis.call('ZADD', qk .. ':deferred', f[4], id)
    out[#out + 1] = {'defer', tostring(tonumber(f[4]) - tonumber(now))}
  elseif group then
    if f[5] ~= group then
      if f[5] then redis.call('SREM', qk .. ':held:' .. f[5], id) end
      redis.call('SADD', qk .. ':held:' .. group, id)
      redis.call('SADD', qk .. ':held', group)
      redis.call('HSET', h, 'held', group)
    end
    out[#out + 1] = {'held'}
  else
    if f[5] then
      redis.call('SREM', qk .. ':held:' .. f[5], id)
      redis.call('HDEL', h, 'held')
    end
    redis.call('HSET', h, 'status', 'running', 'worker_id', worker, 'started_at', now, 'heartbeat_at', now)
    redis.call('HINCRBY', h, 'attempts', 1)
    redis.call('ZREM', qk .. ':deferred', id)
    redis.call('SMOVE', qk .. ':queued', qk .. ':running', id)
    out[#out + 1] = {'run', redis.call('HGETALL', h)}
  end
end
return out
`);

/**
 * ARGV: prefix, then per task: task id, worker id, now, result JSON, retain until, GC ttl ms.
 * Returns per task its queue, or false when the write guard refused.
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
    out[#out + 1] = f[3]
  else
    out[#out + 1] = false
  end
end
return out
`);

/**
 * ARGV: prefix, task id, worker id, now, message, type, retry at ('' for none), retain until, GC ttl ms.
 * Returns {queue, 'failed' | 'queued'} or nil.
 */
export const failScript = new LuaScript(`${header}${guard}
redis.call('HSET', h, 'error', ARGV[5], 'error_type', ARGV[6])
if ARGV[7] == '' then
  redis.call('HSET', h, 'status', 'failed', 'completed_at', ARGV[4], 'retain_until', ARGV[8])
  redis.call('SREM', qk .. ':running', ARGV[2])
  redis.call('ZADD', qk .. ':finished', ARGV[4], ARGV[2])
  redis.call('ZADD', p .. ':retention', ARGV[8], ARGV[2])
  redis.call('PEXPIRE', h, ARGV[9])
  return {f[3], 'failed'}
end
redis.call('HSET', h, 'status', 'queued', 'run_after', ARGV[7])
redis.call('HDEL', h, 'worker_id', 'heartbeat_at')
redis.call('SMOVE', qk .. ':running', qk .. ':queued', ARGV[2])
redis.call('ZADD', qk .. ':deferred', ARGV[7], ARGV[2])
return {f[3], 'queued'}
`);

/** ARGV: prefix, task id, worker id, run after. Back to queued without counting the attempt; returns the queue or nil. */
export const releaseScript = new LuaScript(`${header}${guard}
redis.call('HSET', h, 'status', 'queued', 'run_after', ARGV[4])
redis.call('HINCRBY', h, 'attempts', -1)
redis.call('HDEL', h, 'worker_id', 'heartbeat_at')
redis.call('SMOVE', qk .. ':running', qk .. ':queued', ARGV[2])
redis.call('ZADD', qk .. ':deferred', ARGV[4], ARGV[2])
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
 * ARGV: prefix, now, cancel flag ttl ms, task ids. Per id: {'not_found'}, {'finished'}, or the
 * status it had ({'queued' | 'running', queue}) before it became cancelled.
 */
export const cancelScript = new LuaScript(`${header}
local out = {}
for i = 4, #ARGV do
  local id = ARGV[i]
  local h = tkey(id)
  local f = redis.call('HMGET', h, 'status', 'queue', 'held')
  if not f[1] then
    out[#out + 1] = {'not_found'}
  elseif f[1] ~= 'queued' and f[1] ~= 'running' then
    out[#out + 1] = {'finished'}
  else
    local qk = qkey(f[2])
    redis.call('HSET', h, 'status', 'cancelled', 'completed_at', ARGV[2])
    redis.call('SREM', qk .. ':' .. f[1], id)
    redis.call('ZREM', qk .. ':deferred', id)
    if f[3] then
      redis.call('SREM', qk .. ':held:' .. f[3], id)
      redis.call('HDEL', h, 'held')
    end
    redis.call('ZADD', qk .. ':finished', ARGV[2], id)
    redis.call('SET', p .. ':cancel:' .. id, '1', 'PX', ARGV[3])
    out[#out + 1] = {f[1], f[2]}
  end
end
return out
`);

/**
 * ARGV: prefix, queue, now, retain until, GC ttl ms, error message, then (task id, worker id seen)
 * pairs of running entries the caller judged abandoned. Per id whose state still matches:
 * {id, 'orphan' | 'requeued' | 'failed'}.
 */
export const recoverScript = new LuaScript(`${header}
local qk = qkey(ARGV[2])
local out = {}
for i = 7, #ARGV, 2 do
  local id, worker = ARGV[i], ARGV[i + 1]
  local h = tkey(id)
  local f = redis.call('HMGET', h, 'status', 'worker_id', 'retry_on_crash', 'attempts', 'max_tries')
  if not f[1] then
    if redis.call('SREM', qk .. ':running', id) == 1 then out[#out + 1] = {id, 'orphan'} end
  elseif f[1] == 'running' and f[2] == worker then
    redis.call('SREM', qk .. ':running', id)
    if f[3] == '1' and tonumber(f[4]) < tonumber(f[5]) then
      redis.call('HSET', h, 'status', 'queued', 'run_after', '0')
      redis.call('HDEL', h, 'worker_id', 'heartbeat_at')
      redis.call('SADD', qk .. ':queued', id)
      out[#out + 1] = {id, 'requeued'}
    else
      redis.call('HSET', h, 'status', 'failed', 'completed_at', ARGV[3], 'retain_until', ARGV[4],
        'error', ARGV[6], 'error_type', 'worker_crashed')
      redis.call('ZADD', qk .. ':finished', ARGV[3], id)
      redis.call('ZADD', p .. ':retention', ARGV[4], id)
      redis.call('PEXPIRE', h, ARGV[5])
      out[#out + 1] = {id, 'failed'}
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
