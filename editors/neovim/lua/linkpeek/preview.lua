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

function M.close()
  local p = M.current
  M.current = nil
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

local function open_window(p, cfg)
  p.buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_option(p.buf, "bufhidden", "wipe")
  vim.api.nvim_buf_set_option(p.buf, "filetype", "linkpeek")
  p.width = math.max(20, math.min(cfg.width, vim.o.columns - 4))
  p.win = vim.api.nvim_open_win(p.buf, false, {
    relative = "cursor", row = 1, col = 0, width = p.width, height = 1,
    style = "minimal", border = cfg.border, focusable = true,
  })
  vim.api.nvim_win_set_option(p.win, "wrap", true)
  local group = vim.api.nvim_create_augroup("linkpeek_preview", { clear = true })
  vim.api.nvim_create_autocmd({ "CursorMoved", "CursorMovedI", "InsertEnter", "BufLeave" }, {
    group = group, buffer = vim.api.nvim_get_current_buf(), once = true,
    callback = function()
      M.close()
    end,
  })
end

-- Preview `url` in a float; cfg: width, border, timeout.
function M.open(url, cfg)
  if M.current and M.current.url == url and M.current.win and vim.api.nvim_win_is_valid(M.current.win) then
    return M.current
  end
  M.close()
  if not client.get() then
    client.start()
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
  local params = protocol.fetch_params(url, { work = work, partial = partial }, cfg.timeout)
  p.request_id = client.request(protocol.methods.fetch, params, function(err, result)
    vim.schedule(function()
      if err then
        update(p, "error", nil, "linkpeek: " .. (card.clean(err.message) or "the fetch failed"))
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
