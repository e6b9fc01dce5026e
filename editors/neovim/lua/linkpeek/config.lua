-- Defaults for require("linkpeek").setup({...}); see :help linkpeek-setup.
local M = {}

M.defaults = {
  binary = nil, -- the daemon: a name on $PATH or a path; nil: $PATH, then where the releases install it
  args = {}, -- more arguments for `linkpeek serve`
  allow_private_network = false, -- let the daemon fetch loopback and private addresses
  timeout = nil, -- seconds per fetch (the daemon's default: 30)
  hover_timeout = nil, -- seconds a hover waits before it shows what is known (daemon default 1.5)
  accept_language = nil, -- Accept-Language of previews: nil the editor's language (v:lang), "" none
  hover_images = false, -- hoverImages: the image in K's card (a terminal cannot draw it: off)
  hover_fetch = nil, -- hover.fetch: "always", "allowList" or "cacheOnly"; nil: the daemon's (its config file, else always)
  hover_allow = nil, -- hover.allow: host patterns K may fetch with hover_fetch = "allowList"
  hover_deny = nil, -- hover.deny: host patterns K never fetches
  filetypes = { "markdown", "text", "gitcommit", "rst", "org", "help" },
  comments = false, -- true: attach to buffers of every filetype (URLs in comments and strings)
  keymap = "K", -- buffer-local hover mapping in attached buffers; false for none
  auto_preview = false, -- show the card on CursorHold over a URL
  width = 60, -- preview window width
  border = "rounded",
  open = nil, -- function(url) for :LinkPeekSaved; default xdg-open (open on macOS)
  on_attach = nil, -- function(client, bufnr), called after linkpeek's own
  restart = { delay_ms = 500, max_delay_ms = 30000, max = 5, reset_after_ms = 60000 },
}

local function check(cfg)
  vim.validate({
    binary = { cfg.binary, "string", true },
    args = { cfg.args, "table" },
    filetypes = { cfg.filetypes, "table" },
    timeout = { cfg.timeout, "number", true },
    hover_timeout = { cfg.hover_timeout, "number", true },
    accept_language = { cfg.accept_language, "string", true },
    hover_fetch = { cfg.hover_fetch, "string", true },
    hover_allow = { cfg.hover_allow, "table", true },
    hover_deny = { cfg.hover_deny, "table", true },
    width = { cfg.width, "number" },
    open = { cfg.open, "function", true },
    on_attach = { cfg.on_attach, "function", true },
  })
  local protocol = require("linkpeek.protocol")
  if cfg.hover_fetch ~= nil and not vim.tbl_contains(protocol.hover_fetch_modes, cfg.hover_fetch) then
    error("linkpeek: hover_fetch must be one of " .. table.concat(protocol.hover_fetch_modes, ", "))
  end
  local ranges = protocol.ranges
  for _, key in ipairs({ "timeout", "hover_timeout" }) do
    local v, r = cfg[key], ranges[key]
    if v ~= nil and not (v >= r.min and v <= r.max) then
      error(string.format("linkpeek: %s must be a number of seconds from %s to %s", key, r.min, r.max))
    end
  end
end

function M.build(user)
  local cfg = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), user or {})
  check(cfg)
  -- The daemon's command line, or nil and the sentence saying why there is none.
  cfg.cmd = function()
    local exe, missing = require("linkpeek.binary").find(cfg.binary)
    if not exe then
      return nil, missing
    end
    local cmd = { exe, "serve" }
    if cfg.allow_private_network then
      table.insert(cmd, "--allow-private-network")
    end
    vim.list_extend(cmd, cfg.args)
    return cmd
  end
  return cfg
end

return M
