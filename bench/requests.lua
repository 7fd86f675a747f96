-- requests.lua -- wrk script of the benchmarks:
--   wrk ... -s bench/requests.lua URL -- unique START [EXTRA]
--   wrk ... -s bench/requests.lua URL -- same
--   wrk ... -s bench/requests.lua URL -- list FILE START
-- "unique": every request an image pagedots has not drawn yet (a cache miss
-- and a render): 5 dots, the current page set to the wrk thread's number and
-- the colour counted up from START, so URLs are unique across threads (at
-- most 5) and across runs given different STARTs; EXTRA (e.g. "&scale=2") is
-- appended to each query. "same": one image over and over (hits after the
-- first). "list": every request a new image too, from FILE's templates in
-- turn: lines "WEIGHT PATH?QUERY" (blank lines and # comments skipped), the
-- query holding one %06x (no other %), which takes a number counted up from
-- START (each wrk thread 0x200000 further on); a template comes WEIGHT times
-- in each round of the list. Each request is one string.format of a prepared request, so that
-- wrk, which shares the cores with the server, spends as little as it can.
local threads = 0

function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end

function init(args)
  mode = args[1]
  local host = "HTTP/1.1\r\nHost: " .. wrk.headers["Host"] .. "\r\n\r\n"
  if mode == "same" then
    template = "GET /indicator?pages=5&current=2 " .. host
    return
  end
  if mode == "list" then
    templates = {}
    for line in io.lines(args[2]) do
      local weight, target = line:match("^%s*(%d+)%s+(%S+)")
      for _ = 1, tonumber(weight or "0") do
        templates[#templates + 1] = "GET " .. target .. " " .. host
      end
    end
    if #templates == 0 then error("requests.lua: no templates in " .. args[2]) end
    count = tonumber(args[3] or "0") + id * 0x200000
    return
  end
  if mode ~= "unique" then error("requests.lua: mode must be unique, same or list, got " .. tostring(mode)) end
  if id > 4 then error("requests.lua makes unique URLs for at most 5 wrk threads") end
  count = tonumber(args[2] or "0")
  template = "GET /indicator?pages=5&current=" .. id .. (args[3] or "") .. "&color=%06x " .. host
end

function request()
  if mode == "same" then return template end
  count = count + 1
  if mode == "list" then return string.format(templates[count % #templates + 1], count % 0x1000000) end
  return string.format(template, count % 0x1000000)
end
