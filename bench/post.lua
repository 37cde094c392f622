-- post.lua - wrk script: POST the file named by $BODY_FILE to the given URL.
local f = assert(io.open(os.getenv("BODY_FILE"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
wrk.headers["Content-Type"] = "text/plain"
f:close()
