-- One linkpeek daemon per Neovim instance, attached as an LSP client
-- (vim.lsp.start_client + buf_attach_client: Neovim 0.7 has no vim.lsp.start).
-- Neovim's own vim.lsp.rpc does the framing. A daemon that dies is started
-- again with exponential backoff, and the buffers it served are attached to
-- the new one.
local protocol = require("linkpeek.protocol")

local M = {}

-- Client methods are called with `:` from Neovim 0.11 (the `.` form warns
-- there and goes in 0.13); 0.7-0.10 bind `self` themselves.
local method_calls = vim.fn.has("nvim-0.11") == 1
local function call(c, name, ...)
  if method_calls then
    return c[name](c, ...)
  end
  return c[name](...)
end

local state = {
  cfg = nil,
  client_id = nil,
  buffers = {}, -- bufnr -> true: attached buffers, re-attached after a restart
  streams = {}, -- token -> function(value): $/progress routed to a preview
  restarts = 0, -- quick deaths in a row, for the backoff
  started_at = 0,
  stopping = false,
  next_token = 0,
}

M.state = state

local function on_progress(err, result, ctx, config)
  local route = result and state.streams[result.token]
  if route then
    route(result.value)
    return
  end
  return vim.lsp.handlers[protocol.methods.progress](err, result, ctx, config)
end

local function schedule_restart()
  local cfg = state.cfg
  if state.stopping or not cfg then
    return
  end
  if vim.loop.now() - state.started_at > cfg.restart.reset_after_ms then
    state.restarts = 0 -- it ran long enough: this death is not part of a crash loop
  end
  state.restarts = state.restarts + 1
  if state.restarts > cfg.restart.max then
    vim.notify("linkpeek: the daemon keeps exiting; not restarting it (see :checkhealth linkpeek)",
      vim.log.levels.ERROR)
    return
  end
  local delay = math.min(cfg.restart.max_delay_ms, cfg.restart.delay_ms * 2 ^ (state.restarts - 1))
  vim.defer_fn(function()
    if not state.stopping and state.client_id == nil then
      M.start()
    end
  end, delay)
end

function M.configure(cfg)
  state.cfg = cfg
end

-- Start the daemon (once) and attach the buffers it served before.
function M.start()
  if state.client_id and vim.lsp.get_client_by_id(state.client_id) then
    return state.client_id
  end
  local cfg = state.cfg
  local cmd, missing = cfg.cmd()
  if not cmd then
    -- Say it once a session (every buffer that opens would ask again); a
    -- command the user runs says it again through M.missing().
    state.missing = missing
    if not state.missing_said then
      state.missing_said = true
      vim.notify(missing, vim.log.levels.ERROR)
    end
    return nil
  end
  state.missing, state.missing_said = nil, false -- said again if it goes missing later
  state.stopping = false
  state.started_at = vim.loop.now()
  local id = vim.lsp.start_client({
    name = "linkpeek",
    cmd = cmd,
    root_dir = vim.loop.cwd(),
    init_options = protocol.init_options(cfg),
    capabilities = protocol.capabilities(cfg),
    handlers = { [protocol.methods.progress] = on_progress },
    on_init = function(_, result)
      -- The daemon echoes the settings in effect (cache directory, timeouts).
      state.server_info = result and result.serverInfo
      state.settings = result and result.settings
    end,
    on_attach = cfg.on_attach,
    on_exit = function(_, _, client_id)
      if state.client_id == client_id then
        state.client_id = nil
        for token, route in pairs(state.streams) do
          state.streams[token] = nil
          route(nil) -- tell the preview the daemon is gone
        end
        vim.schedule(schedule_restart)
      end
    end,
  })
  state.client_id = id
  if not id then
    return nil -- Neovim has said why (a binary that cannot be spawned)
  end
  for bufnr in pairs(state.buffers) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      vim.lsp.buf_attach_client(bufnr, id)
    else
      state.buffers[bufnr] = nil
    end
  end
  return id
end

-- Attach `bufnr`; without a daemon (no binary yet) it is remembered and
-- attached when one starts.
function M.attach(bufnr)
  state.buffers[bufnr] = true
  local id = M.start()
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

-- The running client, starting the daemon if there is none; nil and the
-- sentence to show when it cannot start (no binary).
function M.ensure()
  if not M.get() then
    M.start()
  end
  local c = M.get()
  if c then
    return c
  end
  return nil, state.missing or "linkpeek: the daemon is not running (see :checkhealth linkpeek)"
end

function M.get()
  return state.client_id and vim.lsp.get_client_by_id(state.client_id)
end

function M.pid()
  local c = M.get()
  return c and c.rpc and c.rpc.pid
end

-- A fresh token per preview; `route(value)` receives each $/progress value
-- (nil when the daemon exits) until `release`.
function M.stream(route)
  state.next_token = state.next_token + 1
  local token = "linkpeek.nvim-" .. state.next_token
  state.streams[token] = route
  return token
end

-- Stop routing `token` to its preview. The daemon may still send on it (the
-- `end` of a fetch cancelled a moment ago): swallow that for a while rather
-- than hand it to Neovim's progress handler, which would complain.
function M.release(token)
  if state.streams[token] then
    state.streams[token] = function() end
    vim.defer_fn(function()
      state.streams[token] = nil
    end, 10000)
  end
end

-- client.request with a callback(err, result); false when there is no daemon.
function M.request(method, params, callback, bufnr)
  local c = M.get()
  if not c then
    return false
  end
  local ok, request_id = call(c, "request", method, params, function(err, result)
    callback(err, result)
  end, bufnr or 0)
  return ok and request_id
end

function M.cancel(request_id)
  local c = M.get()
  if c and request_id then
    call(c, "cancel_request", request_id)
  end
end

-- Stop the daemon on purpose (Neovim exits, or the user restarts it): the
-- next start begins a fresh count of quick deaths.
function M.stop()
  state.stopping = true
  state.restarts = 0
  local c = M.get()
  if c then
    call(c, "stop")
  end
  state.client_id = nil
end

return M
