-- The linkpeek protocol as this plugin uses it: method names, params, error
-- codes, result fields. It mirrors protocol/README.md (sections 4-6) of the
-- linkpeek repository; when the protocol changes, this file changes with it
-- and nothing else in the plugin names a method or a field.
local M = {}

M.methods = {
  fetch = "fetch", -- {url, timeout?, workDoneToken?, partialResultToken?} -> LinkMetadata
  get_cached = "getCached", -- {url} -> LinkMetadata | null
  cancel = "cancel", -- {providerId} -> {cancelled}
  save = "save", -- {url, tags?} -> the saved entry (saved links)
  saved = "saved", -- {tag?, limit?, offset?} -> saved entries, newest first
  hover = "textDocument/hover", -- LSP: a Markdown card for the URL at a position
  progress = "$/progress", -- {token, value}: work-done progress or a partial LinkMetadata
}

M.errors = {
  method_not_found = -32601,
  invalid_params = -32602,
  cancelled = -32800,
  fetch_failed = -32000,
  timed_out = -32005,
}

-- `data.reason` of a failed request (protocol/README.md section 5; an open
-- set: any other reason is shown by the error's message alone).
M.reasons = {
  blocked_address = "blockedAddress", -- a loopback/private address, refused by the daemon's policy
  blocked = "blocked", -- the site showed a wall (`data.wall`) instead of the page
  rate_limited = "rateLimited", -- HTTP 429/503 with `data.retryAfter` seconds
}

-- `data.wall` of a `blocked` failure.
M.walls = { challenge = "challenge", consent = "consent", login = "login" }

-- The hover card's last line for a refused address (protocol/README.md,
-- textDocument/hover: the card's failure words), and the daemon's own hint
-- that follows them there. The plugin puts its own setting's name in place
-- of the daemon's hint, so the card says it once, in the user's terms.
M.card_blocked_address = "blocked: private address"
M.card_blocked_address_hint = " (set allowPrivateNetwork to allow)"

-- How the message of a `blockedAddress` failure ends (protocol/README.md
-- section 5): the daemon's names for the setting, replaced by the plugin's.
M.blocked_address_message_hint =
  "; the allowPrivateNetwork setting (initializationOptions.allowPrivateNetwork, --allow-private-network) allows it"

-- Work-done progress stages (protocol/README.md, `$/progress`), in their
-- order, with the words the preview shows for each. A stage not listed here
-- (a newer daemon's) is shown by its name.
M.stages = {
  { "resolving", "looking up the host" },
  { "connecting", "connecting" },
  { "waiting", "waiting for the server" },
  { "downloading", "downloading the page" },
  { "parsing", "reading the page" },
  { "icon", "fetching the icon" },
  { "image", "fetching the image" },
  { "transforming", "making the thumbnail" },
}

-- The initializationOptions key that lifts the private-address refusal.
M.allow_private_network = "allowPrivateNetwork"

-- The daemon's ranges for the numbers this plugin sends (ParamRanges in
-- Sources/LinkPeekProtocol/NumberRange.swift; protocol/README.md).
M.ranges = {
  timeout = { min = 0.001, max = 3600 }, -- seconds
  hover_timeout = { min = 0, max = 60 }, -- seconds
}

-- The client capabilities the plugin announces: Neovim's own, with the
-- hover card's format chosen by `hover_images`. Neovim shows a hover float as
-- its Markdown source (0.7 conceals little of it), so without images the
-- plugin asks for plain text first: no syntax at all (protocol/README.md,
-- textDocument/hover). A plain-text card has no image line, so with
-- `hover_images` on it asks for Markdown first, which carries the `data:` line.
function M.capabilities(cfg)
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.textDocument = caps.textDocument or {}
  caps.textDocument.hover = caps.textDocument.hover or {}
  caps.textDocument.hover.contentFormat = cfg.hover_images and { "markdown", "plaintext" }
    or { "plaintext", "markdown" }
  return caps
end

-- A POSIX locale name (`language[_territory][.codeset][@modifier]`) as an
-- Accept-Language value, as the daemon reads its own locale (protocol/README.md
-- §4d): `de_DE.UTF-8` -> `de-DE,de;q=0.9`, `fr` -> `fr`; nil for `C`, `POSIX`
-- and names that are not a language (2-3 letters) with an optional territory
-- (2 letters or 3 digits).
function M.accept_language(locale)
  if type(locale) ~= "string" then
    return nil
  end
  local name = locale:gsub("@.*$", ""):gsub("%..*$", "")
  local language, territory = name:match("^(%a%a%a?)[_-](%w+)$")
  if not language then
    language = name:match("^(%a%a%a?)$")
    if not language then
      return nil
    end
    return language:lower()
  end
  if not (territory:match("^%a%a$") or territory:match("^%d%d%d$")) then
    return nil
  end
  language = language:lower()
  return language .. "-" .. territory:upper() .. "," .. language .. ";q=0.9"
end

-- The editor's language (`v:lang`, what `:language messages` set) as an
-- Accept-Language value, or nil for none (`C`, `POSIX`).
function M.editor_language()
  return M.accept_language(vim.v.lang)
end

-- initializationOptions.hover.fetch's values (protocol/config.md, hover.fetch).
M.hover_fetch_modes = { "always", "allowList", "cacheOnly" }

-- initializationOptions keys (protocol/README.md, `initialize`).
-- Always a JSON object, never `[]` (an empty Lua table encodes as an array).
-- acceptLanguage: the user's `accept_language` ("" sends none), else the
-- editor's language; left out when that is none (the daemon then reads its locale).
function M.init_options(cfg)
  local opts = vim.empty_dict()
  opts[M.allow_private_network] = cfg.allow_private_network or nil
  opts.timeout = cfg.timeout
  opts.hoverTimeout = cfg.hover_timeout
  opts.hoverImages = cfg.hover_images and true or false
  -- hover: only what setup() names, so the daemon's config file keeps the rest.
  if cfg.hover_fetch ~= nil or cfg.hover_allow ~= nil or cfg.hover_deny ~= nil then
    opts.hover = vim.empty_dict()
    opts.hover.fetch = cfg.hover_fetch
    opts.hover.allow = cfg.hover_allow
    opts.hover.deny = cfg.hover_deny
  end
  if cfg.accept_language ~= nil then
    opts.acceptLanguage = cfg.accept_language
  else
    opts.acceptLanguage = M.editor_language()
  end
  return opts
end

-- The fetch params for a preview that streams: progress and the partial result
-- arrive as $/progress on the two tokens. hover: the daemon's hover setting governs it.
function M.fetch_params(url, tokens, timeout, hover)
  return { url = url, timeout = timeout, workDoneToken = tokens.work, partialResultToken = tokens.partial,
    hover = hover or nil }
end

-- A work-done progress value has a `kind` (begin, report, end); a partial
-- result is a LinkMetadata, which never has one.
function M.is_work_done(value)
  return type(value) == "table" and (value.kind == "begin" or value.kind == "report" or value.kind == "end")
end

-- The `saved` answer: the issue gives "a list newest first"; accept a bare
-- array or an object that holds it (items/links/saved).
function M.saved_entries(result)
  if type(result) ~= "table" then
    return {}
  end
  if (vim.islist or vim.tbl_islist)(result) then
    return result
  end
  return result.items or result.links or result.saved or {}
end

-- An entry's metadata: nested under `metadata`, or the entry itself.
function M.entry_metadata(entry)
  if type(entry) ~= "table" then
    return {}
  end
  return type(entry.metadata) == "table" and entry.metadata or entry
end

-- The fields of LinkMetadata a card shows (protocol/README.md section 6).
-- `stage`/`bytes` are the work-done progress fields. `site` is what a site
-- engine read (section 6b), shown as one line (card.site_line).
M.fields = { "title", "siteName", "summary", "url", "originalURL", "image", "video", "richness", "site" }

return M
