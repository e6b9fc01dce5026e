-- Where the linkpeek binary is. The `binary` setting wins when it is given;
-- otherwise the places the release puts it are tried in order: $PATH,
-- ~/.local/bin (`make install PREFIX=~/.local`), /usr/local/bin,
-- /opt/linkpeek/bin, /usr/bin (the .deb), and the `bin` folder of the prefix
-- this plugin was installed under (the tarball and the .deb put the plugins
-- in <prefix>/share/linkpeek/editors/neovim, the binary in <prefix>/bin).
local M = {}

-- The one sentence a user sees when there is no binary (the same in every
-- linkpeek editor plugin).
M.INSTALL = "linkpeek is not installed: install the .deb or tarball from the releases, "
  .. "or `make install PREFIX=~/.local` from the source (see editors/README.md)"

local function executable(path)
  return path ~= nil and path ~= "" and vim.fn.executable(path) == 1 and vim.fn.isdirectory(path) == 0
end

-- <prefix>/bin/linkpeek when this file is <prefix>/share/linkpeek/editors/neovim/lua/linkpeek/binary.lua.
function M.beside_plugin(source)
  source = source or debug.getinfo(1, "S").source
  local file = source:gsub("^@", "")
  local prefix = file:match("^(.*)/share/linkpeek/editors/neovim/lua/linkpeek/[^/]+%.lua$")
  return prefix and (prefix .. "/bin/linkpeek") or nil
end

-- The places tried after $PATH, in order.
function M.places()
  local home = vim.loop.os_homedir() or os.getenv("HOME") or ""
  local list = {
    home .. "/.local/bin/linkpeek",
    "/usr/local/bin/linkpeek",
    "/opt/linkpeek/bin/linkpeek",
    "/usr/bin/linkpeek",
  }
  table.insert(list, M.beside_plugin())
  return list
end

-- The places tried when the `binary` setting is not given, in order.
function M.candidates()
  local list = { vim.fn.exepath("linkpeek") }
  vim.list_extend(list, M.places())
  return vim.tbl_filter(function(p)
    return p ~= ""
  end, list)
end

-- Whether `setting` names a binary (nil, "" and "linkpeek" mean: look for it).
function M.is_set(setting)
  return setting ~= nil and setting ~= "" and setting ~= "linkpeek"
end

-- The binary to run: `setting` (a name on $PATH or a path; "~" expanded)
-- when given, else the first of `candidates()` that is executable.
-- Returns path, or nil and the sentence to show.
function M.find(setting)
  -- "linkpeek" (the old default, still in many configs) looks everywhere too.
  if M.is_set(setting) then
    local path = setting:find("/", 1, true) and vim.fn.expand(setting) or vim.fn.exepath(setting)
    if executable(path) then
      return vim.fn.fnamemodify(path, ":p")
    end
    return nil, string.format("linkpeek: the `binary` setting `%s` is not an executable file "
      .. "(fix or unset it: unset, linkpeek is looked for on $PATH and where the releases install it)", setting)
  end
  for _, path in ipairs(M.candidates()) do
    if executable(path) then
      return path
    end
  end
  return nil, M.INSTALL
end

return M
