-- `K`: the daemon's hover card for the link under the cursor, in Neovim's
-- hover float. Where the daemon finds no link, K does what it does without
-- the plugin (another server's hover, else 'keywordprg'); with no daemon,
-- K on a URL says why (the install sentence) instead of running `man` on a
-- word of the URL. The card shows only where it was asked for: an answer
-- that arrives after the cursor moved (or the buffer changed) is dropped.
local client = require("linkpeek.client")
local protocol = require("linkpeek.protocol")

local M = {
  on_answer = nil, -- function(outcome, lines): tests watch what K did ("card", "fallback", "dropped", "missing")
}

local pending = nil -- {bufnr, pos, tick, request_id}: the hover being waited for

local function where()
  local bufnr = vim.api.nvim_get_current_buf()
  return bufnr, vim.api.nvim_win_get_cursor(0), vim.api.nvim_buf_get_changedtick(bufnr)
end

local function still_there(p)
  local bufnr, pos, tick = where()
  return bufnr == p.bufnr and pos[1] == p.pos[1] and pos[2] == p.pos[2] and tick == p.tick
end

local function report(outcome, lines)
  if M.on_answer then
    M.on_answer(outcome, lines)
  end
end

-- Another language server of this buffer that answers hovers, if any.
local function other_hover_client(bufnr)
  local ours = client.state.client_id
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  for _, c in pairs(clients) do
    if c.id ~= ours and c.server_capabilities and c.server_capabilities.hoverProvider then
      return true
    end
  end
  return false
end

-- What K does without linkpeek: the buffer's other language servers' hover
-- when there is one, else Neovim's own K ('keywordprg' on the word).
function M.fallback()
  report("fallback")
  if other_hover_client(vim.api.nvim_get_current_buf()) then
    return vim.lsp.buf.hover()
  end
  local ok, err = pcall(vim.cmd, "normal! K")
  if not ok then
    vim.notify(tostring(err):gsub("^Vim%(normal%):", ""), vim.log.levels.ERROR)
  end
end

-- The card's lines: a plain-text card as it is, a Markdown one as Neovim
-- reads Markdown hovers; no blank lines around it.
local function card_lines(contents)
  local plain = type(contents) == "table" and contents.kind == "plaintext" and type(contents.value) == "string"
  local lines = plain and vim.split(contents.value, "\n", { plain = true })
    or vim.lsp.util.convert_input_to_markdown_lines(contents)
  while #lines > 0 and vim.trim(lines[#lines]) == "" do
    table.remove(lines)
  end
  while #lines > 0 and vim.trim(lines[1]) == "" do
    table.remove(lines, 1)
  end
  return lines, plain and "plaintext" or "markdown"
end

local function show(result, cfg)
  local lines, syntax = card_lines(result.contents)
  if vim.tbl_isempty(lines) then
    return M.fallback()
  end
  -- A refused private address: the hint names the plugin's setting.
  lines = require("linkpeek.card").with_private_network_hint(lines, syntax == "markdown")
  vim.lsp.util.open_floating_preview(lines, syntax, { border = cfg.border, focus_id = "linkpeek_hover" })
  report("card", lines)
end

function M.hover(cfg)
  local c, missing = client.get(), nil
  if not c then
    if not require("linkpeek.url").under_cursor() then
      return M.fallback()
    end
    c, missing = client.ensure()
    if not c then
      report("missing")
      return vim.notify(missing, vim.log.levels.ERROR)
    end
    -- Just started: the document reaches the daemon once it is initialised.
    vim.wait(5000, function()
      return c.initialized
    end, 10)
  end
  if pending then
    client.cancel(pending.request_id) -- a newer K replaces it
  end
  local bufnr, pos, tick = where()
  local p = { bufnr = bufnr, pos = pos, tick = tick }
  pending = p
  local params = vim.lsp.util.make_position_params(0, c.offset_encoding)
  p.request_id = client.request(protocol.methods.hover, params, vim.schedule_wrap(function(err, result)
    if pending == p then
      pending = nil
    end
    if not still_there(p) then
      return report("dropped")
    end
    if err and err.code == protocol.errors.cancelled then
      return report("cancelled") -- replaced by a newer K
    end
    if err then
      report("error")
      return vim.notify(require("linkpeek.card").error_text(err), vim.log.levels.ERROR)
    end
    if type(result) ~= "table" or result.contents == nil then
      return M.fallback()
    end
    show(result, cfg)
  end), bufnr)
  if not p.request_id then
    pending = nil
    M.fallback()
  end
end

return M
