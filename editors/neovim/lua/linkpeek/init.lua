-- linkpeek for Neovim: link previews from the linkpeek daemon.
-- require("linkpeek").setup({...}) starts one daemon per Neovim instance and
-- attaches it as an LSP client to the chosen filetypes, so `K` on a URL shows
-- its card; :LinkPeek shows a card that fills in as the page loads.
local client = require("linkpeek.client")
local config = require("linkpeek.config")

local M = { cfg = nil }

local function on_attach(c, bufnr)
  if M.cfg.on_attach then
    M.cfg.on_attach(c, bufnr)
  end
end

-- K in the buffers linkpeek serves, daemon or not (without one, K on a URL
-- says how to install linkpeek; elsewhere it is Neovim's own K).
local function map_keys(bufnr)
  if M.cfg.keymap then
    vim.keymap.set("n", M.cfg.keymap, function()
      require("linkpeek.hover").hover(M.cfg)
    end, { buffer = bufnr, desc = "linkpeek: preview the link (else Neovim's K)" })
  end
end

local function wanted(bufnr)
  if vim.bo[bufnr].buftype ~= "" and vim.bo[bufnr].buftype ~= "help" then
    return false
  end
  local ft = vim.bo[bufnr].filetype
  return M.cfg.comments and ft ~= "" and ft ~= "linkpeek" or vim.tbl_contains(M.cfg.filetypes, ft)
end

function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if wanted(bufnr) then
    map_keys(bufnr)
    client.attach(bufnr)
  end
end

function M.setup(user)
  M.cfg = config.build(user)
  local cfg = vim.tbl_extend("force", M.cfg, { on_attach = on_attach })
  client.configure(cfg)
  local group = vim.api.nvim_create_augroup("linkpeek", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  if M.cfg.auto_preview then
    vim.api.nvim_create_autocmd("CursorHold", {
      group = group,
      callback = function(args)
        -- Only with a daemon: without a binary, resting the cursor does not
        -- repeat the install sentence (K and the commands still say it).
        if client.state.buffers[args.buf] and client.get() and require("linkpeek.url").under_cursor() then
          M.preview(nil, { hover = true }) -- a hover: hover_fetch decides
        end
      end,
    })
  end
  vim.api.nvim_create_autocmd("VimLeavePre", { group = group, callback = client.stop })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      M.attach(bufnr)
    end
  end
end

local function ensure_setup()
  if not M.cfg then
    M.setup({})
  end
end

local function url_or_warn(url)
  url = (url and url ~= "") and url or require("linkpeek.url").under_cursor()
  if not url then
    vim.notify("linkpeek: no URL under the cursor", vim.log.levels.WARN)
  end
  return url
end

-- :LinkPeek [url]; opts.hover: a passive preview (auto_preview), which hover_fetch governs
function M.preview(url, opts)
  ensure_setup()
  url = url_or_warn(url)
  return url and require("linkpeek.preview").open(url, M.cfg, opts)
end

-- K
function M.hover()
  ensure_setup()
  return require("linkpeek.hover").hover(M.cfg)
end

-- :LinkPeekSave [url]
function M.save(url, tags)
  ensure_setup()
  url = url_or_warn(url)
  return url and require("linkpeek.saved").save(url, tags)
end

-- :LinkPeekSaved [tag]
function M.saved(tag)
  ensure_setup()
  return require("linkpeek.saved").pick(tag, M.cfg)
end

return M
