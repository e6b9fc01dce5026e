-- :LinkPeekSave and :LinkPeekSaved — the daemon's saved links (`save`,
-- `saved`). A daemon without them answers -32601; say so plainly.
local card = require("linkpeek.card")
local client = require("linkpeek.client")
local protocol = require("linkpeek.protocol")

local M = {}

local NO_SAVED = "linkpeek: this linkpeek daemon has no saved links (`save`/`saved` need a newer linkpeek)"

local function failed(err)
  if err.code == protocol.errors.method_not_found then
    vim.notify(NO_SAVED, vim.log.levels.WARN)
  else
    vim.notify(card.error_text(err), vim.log.levels.ERROR)
  end
end

local function request(method, params, done)
  local c, missing = client.ensure()
  if not c then
    return vim.notify(missing, vim.log.levels.ERROR)
  end
  local ok = client.request(method, params, vim.schedule_wrap(function(err, result)
    if err then
      return failed(err)
    end
    done(result)
  end))
  if not ok then
    vim.notify("linkpeek: the daemon is not running", vim.log.levels.ERROR)
  end
end

function M.save(url, tags)
  request(protocol.methods.save, { url = url, tags = tags }, function(result)
    local meta = protocol.entry_metadata(result)
    vim.notify("linkpeek: saved " .. (card.clean(meta.title) or url))
  end)
end

-- The desktop's opener; a missing one is said in a sentence, not a trace.
function M.default_open(url)
  local opener = vim.fn.has("mac") == 1 and "open" or "xdg-open"
  if vim.fn.executable(opener) ~= 1 then
    return vim.notify(string.format("linkpeek: cannot open %s: `%s` is not installed "
      .. "(install xdg-utils, or give setup() an `open` function)", url, opener), vim.log.levels.ERROR)
  end
  local ok, job = pcall(vim.fn.jobstart, { opener, url }, { detach = true })
  if not ok or job <= 0 then
    vim.notify(string.format("linkpeek: cannot open %s: `%s` did not start", url, opener), vim.log.levels.ERROR)
  end
end

-- The label of one saved entry in the list.
function M.label(entry)
  local meta = protocol.entry_metadata(entry)
  local url = entry.url or meta.url or meta.originalURL or "?"
  local title = card.clean(meta.title)
  return title and (title .. " — " .. url) or url, url
end

-- List the saved links, newest first; open the chosen one.
function M.pick(tag, cfg)
  request(protocol.methods.saved, { tag = tag, limit = 200 }, function(result)
    local entries = protocol.saved_entries(result)
    if #entries == 0 then
      return vim.notify("linkpeek: no saved links" .. (tag and (" tagged " .. tag) or ""))
    end
    vim.ui.select(entries, {
      prompt = "linkpeek saved links",
      format_item = function(e)
        return (M.label(e))
      end,
    }, function(choice)
      if choice then
        local _, url = M.label(choice)
        ;(cfg.open or M.default_open)(url)
      end
    end)
  end)
end

return M
