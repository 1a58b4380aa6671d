-- tests/bench/wrk_round.lua - wrk posts one whole round (a 6-seat body) on every
-- request and counts the answers that are not 201 Created.  Used by
-- `bench_http --wrk-seconds S` (tests/bench/bench_http.c), which writes the
-- body to a file and passes its path and the dealer token in the environment:
--   PB_WRK_BODY=FILE PB_WRK_TOKEN=TOKEN wrk -t2 -c8 -d10s -s wrk_round.lua URL
-- At the end it prints one line: "wrk_round: answers N non201 M".
local f = assert(io.open(assert(os.getenv("PB_WRK_BODY"), "PB_WRK_BODY not set"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. assert(os.getenv("PB_WRK_TOKEN"), "PB_WRK_TOKEN not set")

local threads = {}

function setup(thread)
	table.insert(threads, thread)
end

function init(args)
	answers = 0
	non201 = 0
end

function response(status, headers, body)
	answers = answers + 1
	if status ~= 201 then
		non201 = non201 + 1
	end
end

function done(summary, latency, requests)
	local n, bad = 0, 0
	for _, t in ipairs(threads) do
		n = n + t:get("answers")
		bad = bad + t:get("non201")
	end
	io.write(string.format("wrk_round: answers %d non201 %d\n", n, bad))
end
