#!lua
-- Compare-and-append to one game's log. Everything is checked before the first write, so a call
-- that fails writes nothing (Redis does not roll back a script that fails half way).
--
-- KEYS: log (stream), meta (hash: version, head), cmd (hash: idempotency key -> "bodyhex first last")
-- ARGV: expected version, key field ("" for none), body hash hex, event count n, the channel to
--       announce the append on ("" for none: PUBLISH channel <log key>, which the live tails of every
--       server process follow, eventstore/tail.py), flags (a string of letters: "s" also announces it
--       with SPUBLISH <log key> <last version> on the game's own shard channel, for a Redis Cluster;
--       "w" makes a duplicate write its key again, unchanged, so that a WAITAOF after it waits until
--       the original append is replicated), then n times the nine values of FIELDS, in order.
-- Returns {"ok", first, last} | {"dup", first, last} | {"mismatch"} | {"conflict", version}
--       | {"chain", head}; errors "BG_BADARGS ..." and "BG_CORRUPT ..." for what a caller cannot fix.

local log, meta, cmd = KEYS[1], KEYS[2], KEYS[3]
local FIELDS = {'type', 'schema', 'payload', 'actor', 'command', 'time', 'digest', 'prev', 'hash'}
local WIDTH = #FIELDS
local PREV, HASH = 8, 9
local HEADER = 6

local function whole(s)
  local x = tonumber(s)
  if x and x >= 0 and x == math.floor(x) then return x end
  return nil
end

-- 1. The arguments, all of them.
local expected = whole(ARGV[1])
local key, body = ARGV[2], ARGV[3]
local n = whole(ARGV[4])
local channel = ARGV[5]
local flags = ARGV[6]
if not expected then return redis.error_reply('BG_BADARGS expected version is not a whole number') end
if not n or n < 1 then return redis.error_reply('BG_BADARGS event count must be at least 1') end
if #ARGV ~= HEADER + n * WIDTH then
  return redis.error_reply('BG_BADARGS ' .. n .. ' events need ' .. (HEADER + n * WIDTH) .. ' arguments, got ' .. #ARGV)
end
if key ~= '' and not string.match(body, '^%x+$') then
  return redis.error_reply('BG_BADARGS the body hash must be hex')
end
local function value(i, j) return ARGV[HEADER + (i - 1) * WIDTH + j] end
for i = 1, n do
  if #value(i, PREV) ~= 32 or #value(i, HASH) ~= 32 then
    return redis.error_reply('BG_BADARGS event ' .. i .. ' has no 32-byte prev and hash')
  end
  if i > 1 and value(i, PREV) ~= value(i - 1, HASH) then
    return redis.error_reply('BG_BADARGS event ' .. i .. ' does not chain to event ' .. (i - 1))
  end
  if not whole(value(i, 2)) or not whole(value(i, 6)) then
    return redis.error_reply('BG_BADARGS event ' .. i .. ' has a bad schema or time')
  end
end

-- 2. The idempotency key: a command already appended is answered, never applied twice.
if key ~= '' then
  local seen = redis.call('HGET', cmd, key)
  if seen then
    local seen_body, first, last = string.match(seen, '^(%x+) (%d+) (%d+)$')
    if seen_body == body then
      if string.find(flags, 'w', 1, true) then redis.call('HSET', cmd, key, seen) end
      return {'dup', tonumber(first), tonumber(last)}
    end
    return {'mismatch'}
  end
end

-- 3. The expected version, then the head of the chain.
local m = redis.call('HMGET', meta, 'version', 'head')
local version = (m[1] and tonumber(m[1])) or 0
if version ~= expected then return {'conflict', version} end
local head = m[2] or string.rep('\0', 32)
if head ~= value(1, PREV) then return {'chain', head} end

-- 4. The stream agrees with meta, so no XADD below can fail (no entry was added or deleted behind
--    the store's back).
if redis.call('EXISTS', log) == 1 then
  local info = redis.call('XINFO', 'STREAM', log)
  local f = {}
  for i = 1, #info, 2 do f[info[i]] = info[i + 1] end
  local last = string.format('%d-0', version)
  if f['length'] ~= version or f['last-generated-id'] ~= last
      or (f['entries-added'] ~= nil and f['entries-added'] ~= version) then
    return redis.error_reply('BG_CORRUPT the log (length ' .. tostring(f['length']) .. ', last id '
      .. tostring(f['last-generated-id']) .. ') does not match meta version ' .. version)
  end
elseif version ~= 0 then
  return redis.error_reply('BG_CORRUPT meta says version ' .. version .. ' but there is no log')
end

-- 5. Write: the events, the new head, the key; then announce it.
for i = 1, n do
  local args = {'XADD', log, string.format('%d-0', version + i)}
  for j = 1, WIDTH do
    args[#args + 1] = FIELDS[j]
    args[#args + 1] = value(i, j)
  end
  redis.call(unpack(args))
end
redis.call('HSET', meta, 'version', version + n, 'head', value(n, HASH))
if key ~= '' then
  redis.call('HSET', cmd, key, string.format('%s %d %d', body, version + 1, version + n))
end
if channel ~= '' then redis.call('PUBLISH', channel, log) end
if string.find(flags, 's', 1, true) then redis.call('SPUBLISH', log, version + n) end
return {'ok', version + 1, version + n}
