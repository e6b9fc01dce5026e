-- Checks run between real keystrokes. Tests/editors/test_neovim.py starts
-- `nvim --headless -s KEYS` with this file loaded first: the keys (`j`, `K`,
-- `:LinkPeek`) go through Neovim's main loop, so CursorMoved, BufLeave and
-- the mappings fire as they do for a user, and each `:lua T.x()` between
-- them checks what is on screen. A failed check is recorded and the script
-- goes on; T.finish() prints every result and exits non-zero on a failure.
-- Every wait is bounded.
local base = assert(os.getenv("LINKPEEK_FIXTURE"), "LINKPEEK_FIXTURE not set")
local bin = assert(os.getenv("LINKPEEK_BIN"), "LINKPEEK_BIN not set")

vim.cmd("runtime plugin/linkpeek.lua")
local linkpeek = require("linkpeek")
local preview = require("linkpeek.preview")
local hover = require("linkpeek.hover")

local T = { results = {}, failed = 0, step = 0, outcomes = {}, keyword = {}, notes = {} }
_G.T = T

local function check(name, fn)
  T.step = T.step + 1
  local ok, err = pcall(fn)
  local line = string.format("%s %d %s", ok and "ok" or "not ok", T.step, name)
  if not ok then
    T.failed = T.failed + 1
    line = line .. "\n  " .. tostring(err)
  end
  table.insert(T.results, line)
end

local function expect(cond, msg, ...)
  if not cond then
    error(string.format(msg, ...), 2)
  end
end

-- The preview floats on screen (their buffers have filetype linkpeek), and
-- every other float (K's hover card).
local function floats()
  local previews, others = {}, {}
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= "" then
      local buf = vim.api.nvim_win_get_buf(w)
      local entry = { win = w, lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false) }
      table.insert(vim.bo[buf].filetype == "linkpeek" and previews or others, entry)
    end
  end
  return previews, others
end

local notify = vim.notify
vim.notify = function(msg, level)
  table.insert(T.notes, msg)
  return notify(msg, level)
end

function T.setup(opts)
  linkpeek.setup(vim.tbl_extend("force", {
    binary = bin, allow_private_network = true, hover_timeout = 1.0,
  }, opts or {}))
  hover.on_answer = function(outcome)
    table.insert(T.outcomes, outcome)
  end
  vim.api.nvim_create_user_command("LinkPeekTestK", function(args)
    table.insert(T.keyword, args.args)
  end, { nargs = 1 })
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_name(buf, vim.fn.tempname() .. ".md")
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, {
    "see " .. base .. "/page?title=One",
    "see " .. base .. "/page?title=Two",
    "see " .. base .. "/slow?ms=2500&title=Three",
    "plainword here",
  })
  vim.bo[buf].filetype = "markdown"
  vim.bo[buf].keywordprg = ":LinkPeekTestK"
  vim.api.nvim_win_set_cursor(0, { 1, 8 })
  local ok = vim.wait(5000, function()
    local c = require("linkpeek.client").get()
    return c and c.initialized and vim.lsp.buf_is_attached(buf, c.id)
  end, 10)
  check("setup: the daemon attached", function()
    expect(ok, "the daemon did not attach within 5 s")
  end)
end

-- One preview float, showing `title` once the page has loaded.
function T.shown(title)
  check("one preview float showing " .. title, function()
    local done = vim.wait(5000, function()
      local p = floats()
      return #p >= 1 and p[1].lines[1] == title
    end, 10)
    local p = floats()
    expect(done, "no float showing %s: %s", title, vim.inspect(p))
    expect(#p == 1, "%d preview floats: %s", #p, vim.inspect(p))
    expect(preview.current and preview.current.win == p[1].win, "the float is not the current preview")
  end)
end

-- No preview float, now and `ms` later (a fetch still running must not bring one back).
function T.none(ms)
  check("no preview float after the cursor moved", function()
    local p = floats()
    expect(#p == 0, "%d preview floats after the move: %s", #p, vim.inspect(p))
    expect(preview.current == nil, "a current preview after the move")
    if ms then
      vim.wait(ms)
      p = floats()
      expect(#p == 0, "%d preview floats %d ms after the move: %s", #p, ms, vim.inspect(p))
    end
  end)
end

-- K's answer came after the cursor left: dropped, no hover float anywhere.
function T.hover_dropped()
  check("a hover answered after the cursor left shows nothing", function()
    local done = vim.wait(5000, function()
      return #T.outcomes > 0
    end, 10)
    expect(done, "no hover answer within 5 s")
    expect(vim.deep_equal(T.outcomes, { "dropped" }), "outcomes: %s", vim.inspect(T.outcomes))
    local _, others = floats()
    expect(#others == 0, "a hover float: %s", vim.inspect(others))
    T.outcomes = {}
  end)
end

-- K's card in Neovim's hover float.
function T.hover_card(title)
  check("K shows the card of " .. title, function()
    local done = vim.wait(5000, function()
      return #T.outcomes > 0
    end, 10)
    expect(done, "no hover answer within 5 s")
    expect(vim.deep_equal(T.outcomes, { "card" }), "outcomes: %s", vim.inspect(T.outcomes))
    local _, others = floats()
    expect(#others == 1, "%d hover floats", #others)
    expect(table.concat(others[1].lines, "\n"):find(title, 1, true), "card: %s", vim.inspect(others[1].lines))
    T.outcomes = {}
  end)
end

-- K where the daemon finds no link: Neovim's own K ('keywordprg') on the word.
function T.fell_back(word)
  check("K without a link runs 'keywordprg' on " .. word, function()
    local done = vim.wait(5000, function()
      return #T.keyword > 0
    end, 10)
    expect(done, "'keywordprg' did not run within 5 s; outcomes %s", vim.inspect(T.outcomes))
    expect(vim.deep_equal(T.keyword, { word }), "keywordprg got %s", vim.inspect(T.keyword))
    expect(vim.deep_equal(T.outcomes, { "fallback" }), "outcomes: %s", vim.inspect(T.outcomes))
    T.keyword, T.outcomes = {}, {}
  end)
end

function T.finish()
  for _, line in ipairs(T.results) do
    io.stdout:write(line .. "\n")
  end
  io.stdout:write(string.format("%d checks, %d failed\n", #T.results, T.failed))
  io.stdout:flush()
  require("linkpeek.client").stop()
  vim.wait(2000, function()
    return require("linkpeek.client").pid() == nil
  end, 20)
  vim.cmd(T.failed == 0 and #T.results > 0 and "qa!" or "cquit 1")
end

return T
