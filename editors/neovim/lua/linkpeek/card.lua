-- The preview card as plain text lines for a floating window. Text from a page
-- is shown as text (the buffer has no Markdown or HTML filetype), after
-- control characters and newlines are flattened, so a hostile title cannot
-- break the window or run anything.
local M = {}

local SUMMARY_MAX = 300

-- One line of page text: control characters (newlines, escapes) become spaces.
function M.clean(s)
  if type(s) ~= "string" then
    return nil
  end
  s = s:gsub("[%c]", " "):gsub("%s+", " ")
  s = vim.trim(s)
  return s ~= "" and s or nil
end

local DEFAULT_PORTS = { http = 80, https = 443 }

-- The host of `url` as the daemon's cards show it (protocol/README.md,
-- textDocument/hover): lowercased, with the port unless it is the scheme's
-- default, never the user name or password before an `@`.
function M.host(url)
  if type(url) ~= "string" then
    return nil
  end
  local scheme, authority = url:match("^(%a[%w+.-]*)://([^/?#]+)")
  if not authority then
    return nil
  end
  authority = authority:gsub("^.*@", ""):lower()
  local name, port = authority:match("^(.-):(%d+)$")
  if port and tonumber(port) == DEFAULT_PORTS[scheme:lower()] then
    authority = name
  end
  return authority ~= "" and authority or nil
end

-- Cut at a word boundary near `max` bytes, never inside a UTF-8 sequence.
local function cut(s, max)
  if #s <= max then
    return s
  end
  local head = s:sub(1, max)
  local at = head:match(".*()%s")
  if at and at > max / 2 then
    head = head:sub(1, at - 1)
  else
    while #head > 0 and head:byte(#head) >= 0x80 and head:byte(#head) < 0xC0 do
      head = head:sub(1, -2)
    end
    head = head:sub(1, -2)
  end
  return head .. "…"
end

local function wrap(s, width, out)
  local line = ""
  for word in s:gmatch("%S+") do
    if line ~= "" and vim.fn.strdisplaywidth(line .. " " .. word) > width then
      table.insert(out, line)
      line = word
    else
      line = line == "" and word or (line .. " " .. word)
    end
  end
  if line ~= "" then
    table.insert(out, line)
  end
end

local function count(n, noun)
  return n .. " " .. noun .. (n == 1 and "" or "s")
end

local function is_int(v)
  return type(v) == "number" and v == math.floor(v)
end

-- "2026-01-05" of an ISO 8601 instant: cards show the day, never "3 days
-- ago", so a cached card never goes stale.
local function day(instant)
  return (type(instant) == "string" and #instant >= 10) and instant:sub(1, 10) or nil
end

local function list(v)
  if type(v) ~= "table" or #v == 0 then
    return nil
  end
  local words = {}
  for _, w in ipairs(v) do
    table.insert(words, type(w) == "string" and w or nil)
  end
  return #words > 0 and table.concat(words, ", ") or nil
end

-- A commit's checks, as the daemon's cards say them.
local CHECKS = { success = "✓ checks passed", failure = "✗ checks failed", pending = "checks pending" }

-- The one line of a preview a site engine read (`site`, protocol/README.md
-- section 6b), word for word as the daemon's own cards make it:
-- "merged · #4123 · 12 comments · bug, performance",
-- "✓ accepted · score 231 · 14 answers", "v2.3.1 · MIT · 2026-01-05".
-- nil when `site` is absent or says nothing a card shows.
function M.site_line(site)
  if type(site) ~= "table" then
    return nil
  end
  local parts = {}
  local function add(v)
    if type(v) == "string" then
      table.insert(parts, v)
    end
  end
  local kind = site.kind
  if kind == "issue" or kind == "pullRequest" or kind == "mergeRequest" then
    add(site.state)
    add(is_int(site.number) and ("#" .. site.number) or nil)
    add(is_int(site.comments) and count(site.comments, "comment") or nil)
    add(list(site.labels))
  elseif kind == "question" or kind == "answer" then
    add(site.accepted == true and "✓ accepted" or nil)
    add(site.state)
    add(is_int(site.score) and ("score " .. site.score) or nil)
    add(is_int(site.answers) and count(site.answers, "answer") or nil)
    add(list(site.tags))
  elseif kind == "repository" or kind == "file" or kind == "folder" then
    add(is_int(site.stars) and ("★ " .. site.stars) or nil)
    add(site.language)
    add(site.license)
    add(type(site.latestRelease) == "string" and ("latest " .. site.latestRelease) or nil)
  elseif kind == "commit" then
    add(type(site.version) == "string" and ("commit " .. site.version) or nil)
    add(day(site.createdAt))
    add(type(site.checks) == "string" and (CHECKS[site.checks] or ("checks " .. site.checks)) or nil)
  elseif kind == "release" then
    add(site.version)
    add(site.state)
    add(day(site.createdAt))
  elseif kind == "paper" then
    add(site.category)
    add(type(site.authors) == "table" and count(#site.authors, "author") or nil)
    add(day(site.createdAt) and ("submitted " .. day(site.createdAt)) or nil)
  elseif kind == "package" then
    local version = site.version
    add(type(version) == "string" and (version:match("^%d") and ("v" .. version) or version) or nil)
    add(site.license)
    add(day(site.createdAt))
  elseif kind == "gist" then
    add("gist")
    add(is_int(site.comments) and count(site.comments, "comment") or nil)
  else
    add(site.description)
    add(site.language)
  end
  local shown = {}
  for _, part in ipairs(parts) do
    table.insert(shown, M.clean(part))
  end
  return #shown > 0 and table.concat(shown, " · ") or nil
end

-- Lines for `meta` (LinkMetadata, possibly partial) and a status line:
-- `status` is nil when the card is complete.
function M.lines(url, meta, status, width)
  meta = meta or {}
  local out = {}
  local final = meta.url or meta.originalURL or url
  local title, site, host = M.clean(meta.title), M.clean(meta.siteName), M.host(final)
  table.insert(out, title or host or url)
  if site and host and site ~= host then
    table.insert(out, site .. " · " .. host)
  elseif host and title then
    table.insert(out, host)
  end
  local facts = M.site_line(meta.site)
  if facts then
    table.insert(out, facts)
  end
  local summary = M.clean(meta.summary)
  if summary then
    wrap(cut(summary, SUMMARY_MAX), width, out)
  end
  -- As in the daemon's cards: an image only once linkpeek fetched it and
  -- its bytes were an image (`image.bytes`, protocol/README.md section 6),
  -- never one the policy refused, that failed, or a partial result's
  -- declared one; a video is only named, never loaded, so it always counts.
  local media = meta.video or (type(meta.image) == "table" and type(meta.image.bytes) == "number" and meta.image)
  if type(media) == "table" and M.clean(media.url) then
    local size = (media.width and media.height) and string.format(" (%d×%d)", media.width, media.height) or ""
    table.insert(out, (meta.video and "video: " or "image: ") .. M.clean(media.url) .. size)
  end
  if meta.url and meta.url ~= url then
    table.insert(out, "→ " .. M.clean(meta.url))
  end
  if status then
    table.insert(out, status)
  end
  return out
end

local WALLS = {
  challenge = "the site asked for a browser check before showing the page",
  consent = "the site asked for cookie consent before showing the page",
  login = "the site asked for a login before showing the page",
}

-- The plugin's hint for a refused private address: its own setting's name.
M.private_network_hint = "to read loopback and intranet pages, set allow_private_network = true in setup()"

-- A hover card's lines (the daemon's, Markdown or plain text) with the hint
-- for a refused private address: the daemon's own hint on the last line
-- (its setting's name) gives way to the plugin's, on a line of its own (a
-- paragraph of its own in Markdown).
function M.with_private_network_hint(lines, markdown)
  local protocol = require("linkpeek.protocol")
  local last = lines[#lines]
  if not (last and last:find(protocol.card_blocked_address, 1, true)) then
    return lines
  end
  local at = last:find(protocol.card_blocked_address_hint, 1, true)
  if at then
    lines[#lines] = last:sub(1, at - 1) .. last:sub(at + #protocol.card_blocked_address_hint)
  end
  local hint = M.private_network_hint:gsub("^%l", string.upper)
  if markdown then
    table.insert(lines, "")
  end
  table.insert(lines, hint .. ".")
  return lines
end

-- "90 s", "5 min", "2 h": a retry-after delay for people.
function M.duration(seconds)
  seconds = math.max(0, math.floor(seconds + 0.5))
  if seconds < 120 then
    return seconds .. " s"
  elseif seconds < 7200 then
    return math.floor(seconds / 60 + 0.5) .. " min"
  end
  return math.floor(seconds / 3600 + 0.5) .. " h"
end

-- One sentence for a failed request (a JSON-RPC error), by its `data.reason`:
-- a private-address refusal names the setting that lifts it, a wall says
-- what the site asked for, a rate limit when to try again.
function M.error_text(err)
  local protocol = require("linkpeek.protocol")
  err = type(err) == "table" and err or {}
  local data = type(err.data) == "table" and err.data or {}
  local message = M.clean(err.message)
  if data.reason == protocol.reasons.blocked_address then
    -- The daemon's message ends with its own names for the setting: the
    -- sentence names the plugin's instead, once.
    local cut = message and message:find(protocol.blocked_address_message_hint, 1, true)
    if cut then
      message = cut > 1 and message:sub(1, cut - 1) or nil
    end
    return "linkpeek: " .. (message or "blocked: private address") .. "; " .. M.private_network_hint
  elseif data.reason == protocol.reasons.blocked then
    return "linkpeek: " .. (message or ("blocked: " .. (WALLS[data.wall] or "the site did not show the page")))
  elseif data.reason == protocol.reasons.rate_limited then
    local after = tonumber(data.retryAfter)
    return "linkpeek: the site is limiting requests"
      .. ((after and after >= 0 and after < 1e9) and ("; try again in " .. M.duration(after)) or "; try again later")
  end
  return "linkpeek: " .. (message or "the request failed")
end

-- The words for a progress stage: the protocol's stages by what they mean
-- ("waiting for the server"), any other by its name.
function M.stage_label(stage)
  for _, s in ipairs(require("linkpeek.protocol").stages) do
    if s[1] == stage then
      return s[2]
    end
  end
  return M.clean(stage)
end

-- The status line for a work-done progress value.
function M.progress_status(value)
  local stage = M.stage_label(value.stage or value.message) or "loading"
  local bytes = tonumber(value.bytes)
  if bytes and bytes > 0 then
    return string.format("loading… %s, %d bytes", stage, bytes)
  end
  return "loading… " .. stage
end

return M
