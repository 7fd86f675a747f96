-- miss.lua -- wrk script for bench/miss: every request a URL pagedots has
-- not drawn yet, so that every request is a cache miss and a render.
--
-- The URLs are the typical image of bench/http (5 dots, scale 2) with the
-- current page set to the wrk thread's number and the colour counted up
-- from a per-run start: unique across threads (at most 5) and across the
-- 16.7 million colours of a thread.  Pass a start with `-- START` so that
-- runs against one server never repeat a URL (bench/miss does).  Each
-- request is one string.format of a prepared request, so that wrk, which
-- shares the cores with the server, spends as little as it can.
local threads = 0

function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end

function init(args)
  count = tonumber(args[1] or "0")
  if id > 4 then error("miss.lua makes unique URLs for at most 5 wrk threads") end
  template = "GET /indicator?pages=5&current=" .. id .. "&scale=2&color=%06x HTTP/1.1\r\nHost: "
    .. wrk.headers["Host"] .. "\r\n\r\n"
end

function request()
  count = count + 1
  return string.format(template, count % 0x1000000)
end
