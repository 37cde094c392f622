-- rated.lua - wrk script: rated plays through the daemon.  Each request
-- is POST /puzzle/{game}/{id}/check revealing a puzzle of the ids file,
-- by a player new to it (a first attempt: one rated play, written to the
-- store).  Arguments after --: GAME KEY TAG IDS_FILE; TAG keeps players of
-- different runs apart.  Prints "rated_bad N" (answers other than 200).
local threads = {}

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  game, key, tag = args[1], args[2], args[3]
  ids = {}
  for line in io.lines(args[4]) do ids[#ids + 1] = line end
  counter, bad = 0, 0
  headers = { ["X-Api-Key"] = key, ["Content-Type"] = "application/json" }
end

function request()
  counter = counter + 1
  local id = ids[(counter * 7919 + tid) % #ids + 1]
  local body = string.format('{"moves":[],"reveal":true,"player":"%s-%d-%d"}', tag, tid, counter)
  return wrk.format("POST", "/puzzle/" .. game .. "/" .. id .. "/check", headers, body)
end

function response(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end

function done(summary, latency, requests)
  local n = 0
  for _, t in ipairs(threads) do n = n + t:get("bad") end
  io.write(string.format("rated_bad %d\n", n))
end
