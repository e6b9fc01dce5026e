-- :checkhealth linkpeek — binary found, its version, the daemon answers, the
-- cache directory is writable. Works with Neovim 0.7's `health` module and
-- the `vim.health` of 0.8+.
local M = {}

local function reporter()
  local h = vim.health or require("health")
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
    info = h.info or h.report_info,
  }
end

local function cache_dir()
  local xdg = os.getenv("XDG_CACHE_HOME")
  local base = (xdg and xdg ~= "") and xdg or (vim.loop.os_homedir() .. "/.cache")
  return base .. "/linkpeek"
end

-- Ask the running daemon (or a fresh one) for a getCached of a URL it cannot
-- have: the answer (null) proves it reads and writes the protocol.
local function daemon_answers(r)
  local client = require("linkpeek.client")
  if not client.state.cfg then
    require("linkpeek").setup({})
  end
  if not client.get() then
    client.start()
  end
  local answered, failure = false, nil
  local methods = require("linkpeek.protocol").methods
  local ok = client.request(methods.get_cached, { url = "https://linkpeek.invalid/health" }, function(err)
    answered, failure = true, err
  end)
  if not ok then
    return r.error("the daemon did not start")
  end
  vim.wait(5000, function()
    return answered
  end, 20)
  if not answered then
    r.error("the daemon did not answer within 5 s")
  elseif failure then
    r.error("the daemon answered with an error: " .. tostring(failure.message))
  else
    local info = client.state.server_info or {}
    r.ok(string.format("the daemon answers: %s %s (pid %s)", tostring(info.name or "linkpeek"),
      tostring(info.version or "?"), tostring(client.pid())))
  end
end

function M.check()
  local r = reporter()
  r.start("linkpeek")
  local cfg = require("linkpeek").cfg or require("linkpeek.config").build({})
  local binary = require("linkpeek.binary")
  local exe, missing = binary.find(cfg.binary)
  if not exe then
    local advice = binary.is_set(cfg.binary) and { "set `binary` in setup() to the linkpeek executable, or leave it unset" }
      or { "looked on $PATH, then in " .. table.concat(binary.places(), ", ") }
    r.error(missing, advice)
    return
  end
  r.ok("binary: " .. exe .. (binary.is_set(cfg.binary) and " (the `binary` setting)" or ""))
  local out = vim.fn.system({ exe, "--version" })
  if vim.v.shell_error == 0 then
    r.ok("version: " .. vim.trim(out))
  else
    r.error("`linkpeek --version` failed: " .. vim.trim(out))
  end
  daemon_answers(r)
  local settings = require("linkpeek.client").state.settings or {}
  local dir = type(settings.cacheDir) == "string" and settings.cacheDir or cache_dir()
  if vim.fn.isdirectory(dir) == 0 then
    local parent = vim.fn.fnamemodify(dir, ":h")
    if vim.fn.filewritable(parent) == 2 then
      r.ok("cache directory " .. dir .. " does not exist yet; its parent is writable")
    else
      r.warn("cache directory " .. dir .. " cannot be created: " .. parent .. " is not writable")
    end
  elseif vim.fn.filewritable(dir) == 2 then
    r.ok("cache directory writable: " .. dir)
  else
    r.warn("cache directory not writable: " .. dir, { "the daemon will keep previews in memory only" })
  end
end

return M
