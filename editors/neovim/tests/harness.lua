-- A tiny test runner for `nvim --headless -u NONE`: each test is a function;
-- a failed `expect` raises; results go to stdout as "ok"/"not ok"/"skip"
-- lines; Neovim exits 0 only when every test passed. Every wait is bounded.
local M = { tests = {} }

function M.test(name, fn)
  table.insert(M.tests, { name = name, fn = fn })
end

function M.skip(reason)
  error({ skip = reason }, 0)
end

function M.expect(cond, msg, ...)
  if not cond then
    error(string.format(msg or "expectation failed", ...), 2)
  end
  return cond
end

function M.eq(got, want, what)
  if not vim.deep_equal(got, want) then
    error(string.format("%s: got %s, want %s", what or "value", vim.inspect(got), vim.inspect(want)), 2)
  end
end

-- Wait up to `ms` for `cond()`; fail naming `what` when it never holds.
function M.wait_for(ms, what, cond)
  if not vim.wait(ms, cond, 10) then
    error(string.format("timed out after %d ms waiting for %s", ms, what), 2)
  end
end

local function out(line)
  io.stdout:write(line .. "\n")
  io.stdout:flush()
end

-- CI=1 (any value but empty, 0, false or no), as Tests/integration/suite_guard.py reads it.
local function in_ci()
  local ci = (os.getenv("CI") or ""):lower():gsub("^%s+", ""):gsub("%s+$", "")
  return ci ~= "" and ci ~= "0" and ci ~= "false" and ci ~= "no"
end

-- LINKPEEK_TEST_ONLY=text runs only the tests whose name contains it; under
-- CI it is refused (a narrowed run must not pass as the whole suite), and a
-- skip is a failure (nothing may be missing there).
function M.run()
  local failed = 0
  local only = os.getenv("LINKPEEK_TEST_ONLY")
  if in_ci() and only and only ~= "" then
    out("not ok LINKPEEK_TEST_ONLY is refused under CI=1 (it would run only part of the suite)")
    out("0 tests, 1 failed")
    return 1
  end
  local tests = vim.tbl_filter(function(t)
    return not only or only == "" or t.name:find(only, 1, true) ~= nil
  end, M.tests)
  for _, t in ipairs(tests) do
    local started = vim.loop.hrtime()
    local ok, err = xpcall(t.fn, function(e)
      return type(e) == "table" and e or debug.traceback(tostring(e), 2)
    end)
    local ms = (vim.loop.hrtime() - started) / 1e6
    if ok then
      out(string.format("ok %s (%.0f ms)", t.name, ms))
    elseif type(err) == "table" and err.skip and in_ci() then
      failed = failed + 1
      out(string.format("not ok %s: skipped under CI=1, where nothing may be missing: %s", t.name, err.skip))
    elseif type(err) == "table" and err.skip then
      out(string.format("skip %s: %s", t.name, err.skip))
    else
      failed = failed + 1
      out(string.format("not ok %s (%.0f ms)\n  %s", t.name, ms, tostring(err):gsub("\n", "\n  ")))
    end
  end
  out(string.format("%d tests, %d failed", #tests, failed))
  return failed
end

return M
