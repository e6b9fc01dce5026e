-- The URL under the cursor, for :LinkPeek and auto preview. The daemon owns
-- full URL detection (textDocument/hover, documentLink); this is the small
-- client-side part a command needs before it can ask: http(s) and www.
-- URLs, trailing punctuation trimmed unless it closes a bracket the URL opened.
local M = {}

local trailing = { ["."] = true, [","] = true, [";"] = true, [":"] = true, ["!"] = true, ["?"] = true,
  ["'"] = true, ['"'] = true, [">"] = true, [")"] = true, ["]"] = true }
local pairs_of = { [")"] = "(", ["]"] = "[" }

local function count(s, ch)
  local _, n = s:gsub("%" .. ch, "")
  return n
end

local function trim(url)
  while #url > 0 do
    local last = url:sub(-1)
    if not trailing[last] then
      break
    end
    local open = pairs_of[last]
    if open and count(url, open) >= count(url, last) then
      break -- balanced, as in Wikipedia's Foo_(disambiguation)
    end
    url = url:sub(1, -2)
  end
  return url
end

-- Every URL of one line: {url, start, finish} with byte columns, 1-based inclusive.
function M.find_all(line)
  local found = {}
  local init = 1
  while true do
    local s, e = line:find("[%w%.%+%-]*[Hh][Tt][Tt][Pp][Ss]?://[^%s<>\"'`{}|\\^]+", init)
    local ws, we = line:find("[Ww][Ww][Ww]%.[%w%-]+%.[^%s<>\"'`{}|\\^]+", init)
    if ws and (not s or ws < s) then
      s, e = ws, we
    end
    if not s then
      break
    end
    local raw = line:sub(s, e)
    -- "xhttp://" inside a longer word is not a URL; start at the scheme.
    local scheme = raw:find("[Hh][Tt][Tt][Pp][Ss]?://")
    if scheme and scheme > 1 then
      s, raw = s + scheme - 1, raw:sub(scheme)
    end
    local before = s > 1 and line:sub(s - 1, s - 1) or ""
    local url = trim(raw)
    if #url > 0 and not before:match("[%w]") then
      if url:match("^[Ww][Ww][Ww]%.") then
        url = "https://" .. url
      end
      table.insert(found, { url = url, start = s, finish = s + #trim(raw) - 1 })
    end
    init = e + 1
  end
  return found
end

-- The URL at byte column `col` (1-based) of `line`, or nil.
function M.at(line, col)
  for _, hit in ipairs(M.find_all(line)) do
    if col >= hit.start and col <= hit.finish then
      return hit.url
    end
  end
  return nil
end

function M.under_cursor()
  local line = vim.api.nvim_get_current_line()
  local col = vim.api.nvim_win_get_cursor(0)[2] + 1
  return M.at(line, col)
end

return M
