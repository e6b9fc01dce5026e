-- :LinkPeek — the card of one URL in a floating window that fills in as the
-- daemon streams: "loading…" with the stage and bytes (work-done progress),
-- then the partial result (title first), then the full card. Moving the
-- cursor closes it and cancels the fetch.
local card = require("linkpeek.card")
local client = require("linkpeek.client")
local protocol = require("linkpeek.protocol")

local M = {
  current = nil, -- {url, buf, win, request_id, tokens, done}
  on_update = nil, -- function(phase, lines): tests and users may watch the card fill in
}

local function render(p, meta, status)
  if not (p.buf and vim.api.nvim_buf_is_valid(p.buf)) then
    return
  end
  local width = p.width
  local lines = card.lines(p.url, meta, status, width)
  vim.api.nvim_buf_set_option(p.buf, "modifiable", true)
  vim.api.nvim_buf_set_lines(p.buf, 0, -1, false, lines)
  vim.api.nvim_buf_set_option(p.buf, "modifiable", false)
  if p.win and vim.api.nvim_win_is_valid(p.win) then
    -- Long lines (a title, an image URL) wrap: count screen rows, not lines.
    local rows = 0
    for _, line in ipairs(lines) do
      rows = rows + math.max(1, math.ceil(vim.fn.strdisplaywidth(line) / width))
    end
    vim.api.nvim_win_set_height(p.win, math.min(rows, 20))
  end
  return lines
end

local function update(p, phase, meta, status)
  if M.current ~= p or p.done then
    return
  end
  p.meta = meta or p.meta
  local lines = render(p, p.meta, status)
  if M.on_update and lines then
    M.on_update(phase, lines)
  end
end

-- One augroup for the preview's autocmds, cleared whenever a preview closes
-- or opens: no autocmd of an earlier preview outlives it.
local GROUP = "linkpeek_preview"

function M.close()
  local p = M.current
  M.current = nil
  vim.api.nvim_create_augroup(GROUP, { clear = true })
  if not p then
    return
  end
  if not p.done then
    p.done = true
    client.cancel(p.request_id)
  end
  for _, token in ipairs(p.tokens) do
    client.release(token)
  end
  if p.win and vim.api.nvim_win_is_valid(p.win) then
    vim.api.nvim_win_close(p.win, true)
  end
end

-- The float sits under the cursor it was asked from; it closes when that
-- cursor moves, insert mode starts, the buffer is left or the float itself
-- is closed. The autocmds are made after the window exists, and each checks
-- that its preview is still the current one and that the cursor really left
-- (a CursorMoved that Neovim owes from before the preview opened is not a move).
local function open_window(p, cfg)
  vim.api.nvim_create_augroup(GROUP, { clear = true })
  local source = vim.api.nvim_get_current_buf()
  local source_win = vim.api.nvim_get_current_win()
  local origin = vim.api.nvim_win_get_cursor(source_win)
  p.buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_option(p.buf, "bufhidden", "wipe")
  vim.api.nvim_buf_set_option(p.buf, "filetype", "linkpeek")
  p.width = math.max(20, math.min(cfg.width, vim.o.columns - 4))
  p.win = vim.api.nvim_open_win(p.buf, false, {
    relative = "cursor", row = 1, col = 0, width = p.width, height = 1,
    style = "minimal", border = cfg.border, focusable = true,
  })
  vim.api.nvim_win_set_option(p.win, "wrap", true)
  local group = vim.api.nvim_create_augroup(GROUP, { clear = true })
  local function close_if_current()
    if M.current == p then
      M.close()
    end
  end
  vim.api.nvim_create_autocmd("CursorMoved", {
    group = group, buffer = source,
    callback = function()
      local win = vim.api.nvim_get_current_win()
      local now = vim.api.nvim_win_get_cursor(win)
      if win ~= source_win or now[1] ~= origin[1] or now[2] ~= origin[2] then
        close_if_current()
      end
    end,
  })
  vim.api.nvim_create_autocmd({ "CursorMovedI", "InsertEnter", "BufLeave" }, {
    group = group, buffer = source, callback = close_if_current,
  })
  vim.api.nvim_create_autocmd("WinClosed", {
    group = group, pattern = tostring(p.win),
    callback = function()
      p.win = nil -- closing already
      close_if_current()
    end,
  })
end

-- Preview `url` in a float; cfg: width, border, timeout; opts.hover: a hover's fetch.
function M.open(url, cfg, opts)
  if M.current and M.current.url == url and M.current.win and vim.api.nvim_win_is_valid(M.current.win) then
    return M.current
  end
  M.close()
  local c, missing = client.ensure()
  if not c then
    vim.notify(missing, vim.log.levels.ERROR)
    return nil
  end
  local p = { url = url, tokens = {} }
  M.current = p
  open_window(p, cfg)
  update(p, "open", nil, "loading…")
  local work = client.stream(vim.schedule_wrap(function(value)
    if value == nil then
      return update(p, "error", nil, "linkpeek: the daemon exited")
    end
    if protocol.is_work_done(value) and value.kind ~= "end" then
      update(p, "progress", nil, card.progress_status(value))
    end
  end))
  local partial = client.stream(vim.schedule_wrap(function(value)
    if type(value) == "table" and not protocol.is_work_done(value) then
      update(p, "partial", value, "loading…")
    end
  end))
  p.tokens = { work, partial }
  local params = protocol.fetch_params(url, { work = work, partial = partial }, cfg.timeout, opts and opts.hover)
  p.request_id = client.request(protocol.methods.fetch, params, function(err, result)
    vim.schedule(function()
      if err then
        update(p, "error", nil, card.error_text(err))
      else
        update(p, "done", result, nil)
      end
      p.done = true
    end)
  end)
  if not p.request_id then
    update(p, "error", nil, "linkpeek: the daemon is not running")
    p.done = true
  end
  return p
end

return M
