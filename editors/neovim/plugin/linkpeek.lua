-- linkpeek's user commands. Nothing is loaded until one is used or
-- require("linkpeek").setup() is called.
if vim.g.loaded_linkpeek then
  return
end
vim.g.loaded_linkpeek = true

vim.api.nvim_create_user_command("LinkPeek", function(opts)
  require("linkpeek").preview(opts.args)
end, { nargs = "?", desc = "Preview the URL under the cursor (or the given URL)" })

vim.api.nvim_create_user_command("LinkPeekSave", function(opts)
  local args = opts.fargs
  local url = args[1]
  local tags = #args > 1 and vim.list_slice(args, 2) or nil
  require("linkpeek").save(url, tags)
end, { nargs = "*", desc = "Save the URL under the cursor (or the given URL [tags…])" })

vim.api.nvim_create_user_command("LinkPeekSaved", function(opts)
  require("linkpeek").saved(opts.args ~= "" and opts.args or nil)
end, { nargs = "?", desc = "List saved links (optionally with a tag) and open one" })
