-- Requests for wrk, used by bench/memory:
--   wrk ... -s bench/requests.lua URL -- MODE THREADS
-- MODE "unique": every request a different valid image (pages=5, current and
-- color from a counter, unique across THREADS threads), so every one is a
-- cache miss. MODE "same": one image over and over (hits after the first).
local next_thread = 0

function setup(thread)
  thread:set("id", next_thread)
  next_thread = next_thread + 1
end

function init(args)
  mode = args[1]
  threads = tonumber(args[2])
  sent = 0
end

function request()
  if mode == "same" then
    return wrk.format(nil, "/indicator?pages=5&current=2")
  end
  local n = id + sent * threads
  sent = sent + 1
  return wrk.format(nil, string.format("/indicator?pages=5&current=%d&color=%%23%06x", n % 5, math.floor(n / 5)))
end

