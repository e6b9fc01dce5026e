-- Headless tests of the Neovim plugin against the real daemon and a loopback
-- fixture server (Tests/editors/test_neovim.py starts both and runs this:
-- LINKPEEK_BIN, LINKPEEK_FIXTURE=http://127.0.0.1:PORT).
local h = require("harness")
local base = assert(os.getenv("LINKPEEK_FIXTURE"), "LINKPEEK_FIXTURE not set")
local bin = assert(os.getenv("LINKPEEK_BIN"), "LINKPEEK_BIN not set")

vim.cmd("runtime plugin/linkpeek.lua")
local opened = {}
local linkpeek = require("linkpeek")
-- The suite's settings, which a test that changes them goes back to.
local function default_setup()
  linkpeek.setup({
    binary = bin,
    allow_private_network = true,
    hover_timeout = 1.0,
    open = function(url)
      table.insert(opened, url)
    end,
  })
end
default_setup()
local client = require("linkpeek.client")

-- Runs `body(notes)` with every vim.notify message kept in `notes` instead of
-- shown, then puts vim.notify back; an error in `body` is raised after.
local function with_notes(body)
  local notes = {}
  local notify = vim.notify
  vim.notify = function(msg)
    table.insert(notes, msg)
  end
  local ok, e = pcall(body, notes)
  vim.notify = notify
  if not ok then
    error(e, 0)
  end
end

-- Runs `body` against a daemon of its own set up with `options`, then goes
-- back to the suite's settings and daemon; an error in `body` is raised after.
local function with_daemon(options, body)
  client.stop()
  linkpeek.setup(options)
  local ok, e = pcall(body)
  client.stop()
  default_setup()
  client.start()
  if not ok then
    error(e, 0)
  end
end
local preview = require("linkpeek.preview")
local card = require("linkpeek.card")
local protocol = require("linkpeek.protocol")

-- A Markdown buffer holding `lines`, current in the window, attached.
local counter = 0
local function markdown(lines)
  counter = counter + 1
  local buf = vim.api.nvim_create_buf(true, false)
  vim.api.nvim_buf_set_name(buf, vim.fn.tempname() .. "-" .. counter .. ".md")
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.api.nvim_set_current_buf(buf)
  vim.bo[buf].filetype = "markdown"
  h.wait_for(5000, "the daemon to attach", function()
    local c = client.get()
    return c and c.initialized and vim.lsp.buf_is_attached(buf, c.id)
  end)
  return buf
end

-- Run :LinkPeek on the URL at (row, col) and record every update until done.
local function preview_at(row, col)
  vim.api.nvim_win_set_cursor(0, { row, col })
  local seen = {}
  preview.on_update = function(phase, lines)
    table.insert(seen, { phase = phase, lines = lines, t = vim.loop.hrtime() / 1e6 })
  end
  vim.cmd("LinkPeek")
  h.wait_for(10000, "the preview to finish", function()
    local last = seen[#seen]
    return last and (last.phase == "done" or last.phase == "error")
  end)
  preview.on_update = nil
  return seen
end

local function hover(buf, row, col, ms)
  vim.api.nvim_win_set_cursor(0, { row, col })
  local params = vim.lsp.util.make_position_params()
  local answers = vim.lsp.buf_request_sync(buf, protocol.methods.hover, params, ms or 5000)
  local answer = answers and answers[client.get().id]
  h.expect(answer, "no hover answer within %d ms", ms or 5000)
  h.expect(answer.err == nil, "hover failed: %s", vim.inspect(answer.err))
  return answer.result
end

-- The daemon's cached card of `url`: nil (JSON null) while its fetch is still running.
local function cached(url)
  local got
  client.request(protocol.methods.get_cached, { url = url }, function(err, result)
    got = { err = err, result = result }
  end)
  h.wait_for(5000, "the getCached answer", function()
    return got ~= nil
  end)
  h.expect(got.err == nil, "getCached failed: %s", vim.inspect(got.err))
  return got.result
end

-- Hover until the card is complete (no "loading…"), within `ms`.
local function hover_until_done(buf, row, col, ms)
  local result
  h.wait_for(ms, "the full card", function()
    result = hover(buf, row, col)
    return result and not result.contents.value:find("loading…", 1, true)
  end)
  return result
end

local function needs_hover()
  local c = client.get()
  h.expect(c and c.server_capabilities and c.server_capabilities.hoverProvider,
    "the daemon does not advertise hoverProvider")
end

h.test("url under the cursor: the client-side table", function()
  local url = require("linkpeek.url")
  local cases = {
    { "see https://a.example/x.", 10, "https://a.example/x" },
    { "(https://en.wikipedia.org/wiki/Foo_(bar))", 5, "https://en.wikipedia.org/wiki/Foo_(bar)" },
    { "[t](http://a.example/c \"title\")", 8, "http://a.example/c" },
    { "<https://a.example/auto>", 3, "https://a.example/auto" },
    { "go to www.example.org/page, now", 9, "https://www.example.org/page" },
    { "xhttps://not.a.url/", 5, nil },
    { "plain text here", 3, nil },
  }
  for _, c in ipairs(cases) do
    h.eq(url.at(c[1], c[2]), c[3], c[1])
  end
end)

h.test("setup refuses a timeout out of the daemon's range, naming the key", function()
  local ok, err = pcall(require("linkpeek.config").build, { hover_timeout = 61 })
  h.eq(ok, false, "accepted")
  h.expect(tostring(err):find("linkpeek: hover_timeout must be a number of seconds from 0 to 60", 1, true), "%s", err)
end)

h.test("the float fills in: progress, then the partial card, then the full card", function()
  local page = base .. "/slowimage?ms=1500"
  markdown({ "# notes", "read " .. page .. " later" })
  local seen = preview_at(2, 8)
  local partial, done
  for _, s in ipairs(seen) do
    if s.phase == "partial" and not partial then
      partial = s
    elseif s.phase == "done" then
      done = s
    end
  end
  h.expect(seen[1].phase == "open" and seen[1].lines[1] == card.host(base), "first: the host, loading: %s",
    vim.inspect(seen[1]))
  h.expect(partial, "no partial card among %s", vim.inspect(seen))
  h.eq(partial.lines[1], "Slow Image Page", "partial title")
  h.expect(done, "no final card")
  -- The partial card came while the image was still loading: no image line
  -- until linkpeek has fetched it (the daemon's cards do the same).
  h.eq(partial.lines, { "Slow Image Page", "Fixture Site · " .. card.host(base), "The head is quick; the image is not.",
    "loading…" }, "the partial card")
  h.eq(done.lines[1], "Slow Image Page", "final title")
  h.eq(done.lines[2], "Fixture Site · " .. card.host(base), "site line")
  h.expect(done.lines[#done.lines]:find("^image: " .. vim.pesc(base) .. "/img%-slow%?ms=1500 %(40×20%)$"),
    "final image line: %s", vim.inspect(done.lines))
  local win_lines = vim.api.nvim_buf_get_lines(preview.current.buf, 0, -1, false)
  h.eq(win_lines, done.lines, "the float shows the final card")
  preview.close()
end)

h.test("a hostile title shows as one line of plain text in the float", function()
  markdown({ base .. "/hostile" })
  local seen = preview_at(1, 3)
  local done = seen[#seen]
  h.eq(done.phase, "done", "phase")
  h.eq(done.lines[1], "Evil](javascript:alert(1)) <img src=x onerror=alert(2)> ``` # heading [x]: javascript:alert(3)",
    "title, flattened")
  h.eq(vim.bo[preview.current.buf].filetype, "linkpeek", "float filetype (no Markdown rendering)")
  preview.close()
end)

h.test("closing a loading preview cancels its fetch; the editor keeps going", function()
  markdown({ base .. "/slow?ms=8000&title=Never" })
  vim.api.nvim_win_set_cursor(0, { 1, 3 })
  vim.cmd("LinkPeek")
  local p = preview.current
  h.expect(p and p.request_id, "no fetch sent")
  vim.wait(200)
  preview.close() -- what moving the cursor does: $/cancelRequest
  h.expect(not vim.api.nvim_win_is_valid(p.win), "the float is still open")
  -- Neovim swallows the -32800 answer of a cancelled request, so ask the
  -- daemon: the provider (id = the request id) is no longer running.
  local answer
  client.request(protocol.methods.cancel, { providerId = p.request_id }, function(err, result)
    answer = result or { err = err }
  end)
  -- A hang bound well below the page's 8 s: the cancel is answered, not the page.
  h.wait_for(5000, "the cancel answer", function()
    return answer ~= nil
  end)
  h.eq(answer, { cancelled = false }, "the provider is already gone")
  -- The control: a running provider is found and cancelled.
  client.request(protocol.methods.fetch, { url = base .. "/slow?ms=8000&title=Other", providerId = "control" },
    function() end)
  vim.wait(200)
  answer = nil
  client.request(protocol.methods.cancel, { providerId = "control" }, function(_, result)
    answer = result
  end)
  h.wait_for(5000, "the control cancel answer", function()
    return answer ~= nil
  end)
  h.eq(answer, { cancelled = true }, "a running provider")
  -- And the next preview works at once.
  markdown({ base .. "/page?title=Next" })
  local seen = preview_at(1, 3)
  h.eq(seen[#seen].lines[1], "Next", "the next preview")
  preview.close()
end)

h.test("K on a URL in Markdown: the plain-text card (hover_images off asks for plaintext first)", function()
  local buf = markdown({ "A link: " .. base .. "/page?title=Hover+Title end" })
  needs_hover()
  local result = hover(buf, 1, 12)
  h.expect(result and result.contents, "no card: %s", vim.inspect(result))
  h.eq(result.contents.kind, "plaintext", "contents kind")
  -- Every part on its own line, no Markdown syntax, no image line.
  h.eq(vim.split(result.contents.value, "\n", { plain = true }),
    { "Hover Title", "Fixture Site · " .. card.host(base), "An Open Graph description." }, "the card")
  h.eq(vim.fn.maparg("K", "n", false, true).buffer, 1, "K is mapped in the buffer")
  -- K shows those lines as they are, in a float without Markdown syntax.
  local hover_mod = require("linkpeek.hover")
  local answer
  hover_mod.on_answer = function(outcome, lines)
    answer = { outcome = outcome, lines = lines }
  end
  vim.cmd("normal K")
  h.wait_for(5000, "K's answer", function()
    return answer ~= nil
  end)
  hover_mod.on_answer = nil
  h.eq(answer.outcome, "card", "K's outcome")
  h.eq(answer.lines, { "Hover Title", "Fixture Site · " .. card.host(base), "An Open Graph description." }, "K's lines")
  local float
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= "" then
      float = w
    end
  end
  h.expect(float, "no float")
  h.eq(vim.api.nvim_buf_get_option(vim.api.nvim_win_get_buf(float), "syntax"), "plaintext", "the float's syntax")
  vim.api.nvim_win_close(float, true)
end)

h.test("the capabilities ask for the card's format by hover_images", function()
  h.eq(protocol.capabilities({ hover_images = false }).textDocument.hover.contentFormat, { "plaintext", "markdown" },
    "images off")
  h.eq(protocol.capabilities({ hover_images = true }).textDocument.hover.contentFormat, { "markdown", "plaintext" },
    "images on")
end)

-- Text escaped for Markdown is text: an unescaped `](`, `<img`, `<script` or
-- a fence would be a link, HTML or code.
local function expect_no_injection(value)
  h.expect(value:find("Evil", 1, true), "no title in %s", value)
  h.expect(not ("\n" .. value):find("[^\\]%]%(javascript:"), "a link survived: %s", value)
  h.expect(not ("\n" .. value):find("[^\\]<img"), "HTML survived: %s", value)
  h.expect(not ("\n" .. value):find("[^\\]<script"), "HTML survived: %s", value)
  h.expect(not value:find("\n```", 1, true), "a code fence survived: %s", value)
end

h.test("K with hover_images on: the Markdown card, bold title, the image as a data: thumbnail", function()
  with_daemon({ binary = bin, allow_private_network = true, hover_timeout = 3.0, hover_images = true }, function()
    local url = base .. "/page?title=Images+On"
    local buf = markdown({ url })
    local result = hover(buf, 1, 3, 8000)
    h.eq(result.contents.kind, "markdown", "contents kind")
    local lines = vim.split(result.contents.value, "\n", { plain = true })
    h.eq(lines[1], "**Images On**", "the title: bold, not a link")
    h.expect(vim.tbl_contains(lines, "An Open Graph description."), "no summary: %s", result.contents.value)
    local images = vim.tbl_filter(function(l)
      return l:find("![", 1, true) ~= nil
    end, lines)
    h.eq(#images, 1, "image lines")
    h.expect(images[1]:find("^!%[[^%]]*%]%(data:image/jpeg;base64,[%w+/=]+%)$"), "image line: %s", images[1])
    h.expect(not result.contents.value:find(base .. "/img", 1, true), "the page's image URL in the card: %s",
      result.contents.value)
    -- A hostile title cannot inject Markdown or HTML into the Markdown card.
    expect_no_injection(hover(markdown({ base .. "/hostile" }), 1, 3).contents.value)
  end)
end)

h.test("hover after edits: Neovim's incremental changes, with emoji, CJK and combining marks before the URL", function()
  local url = base .. "/page?title=Wide+Line"
  local buf = markdown({ "😀 日本 e\204\129 " .. url, "second line" })
  needs_hover()
  local col = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1]:find("http", 1, true) + 2
  h.expect(hover(buf, 1, col).contents.value:find("Wide Line", 1, true), "first hover")
  -- Insert before the URL and on the next line; Neovim sends ranged (UTF-16) changes.
  vim.api.nvim_buf_set_text(buf, 0, 0, 0, 0, { "🎉🎉 " })
  vim.api.nvim_buf_set_text(buf, 1, 0, 1, 0, { "see " .. base .. "/page?title=Second+Line " })
  local line = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1]
  local moved = line:find("http", 1, true) + 2
  h.expect(hover(buf, 1, moved).contents.value:find("Wide Line", 1, true), "hover after the insert")
  h.eq(hover(buf, 1, 1), nil, "hover on the inserted emoji")
  h.expect(hover(buf, 2, 10).contents.value:find("Second Line", 1, true), "hover on the edited second line")
end)

h.test("hover on plain text answers nothing", function()
  local buf = markdown({ "no links on this line at all" })
  needs_hover()
  h.eq(hover(buf, 1, 5), nil, "hover result")
end)

h.test("a hostile title in the plain-text card: text as written, one line, no escapes", function()
  local buf = markdown({ base .. "/hostile" })
  needs_hover()
  local contents = hover(buf, 1, 3).contents
  h.eq(contents.kind, "plaintext", "contents kind")
  -- Shown in a float without syntax, nothing in it is interpreted; its
  -- newlines are flattened, so it cannot make lines of its own.
  h.eq(vim.split(contents.value, "\n", { plain = true }), {
    "Evil](javascript:alert(1)) <img src=x onerror=alert(2)> ``` # heading [x]: javascript:alert(3)",
    card.host(base),
    "<script>alert(4)</script> **bold** `code` | table |",
  }, "the card")
end)

h.test("a slow page's hover answers before the page is done; a later hover has the full card", function()
  local url = base .. "/slow?ms=2500&title=Slowly+Done"
  local buf = markdown({ url })
  needs_hover()
  local first = hover(buf, 1, 3)
  h.expect(first and first.contents.value:find("127.0.0.1", 1, true), "no host: %s", vim.inspect(first))
  h.expect(not first.contents.value:find("Slowly Done", 1, true), "the first card is already full")
  h.eq(cached(url), nil, "the page was done when the hover answered")
  local second = hover_until_done(buf, 1, 3, 10000)
  h.expect(second.contents.value:find("Slowly Done", 1, true), "the second card: %s", second.contents.value)
  h.eq(type(cached(url)), "table", "the control: the cached card once the page is done")
end)

h.test("a cancelled hover leaves the editor responsive and the page still loads", function()
  local buf = markdown({ base .. "/slow?ms=1500&title=Loaded+Anyway" })
  needs_hover()
  vim.api.nvim_win_set_cursor(0, { 1, 3 })
  local answered = false
  local _, cancel = vim.lsp.buf_request(buf, protocol.methods.hover, vim.lsp.util.make_position_params(),
    function()
      answered = true
    end)
  vim.wait(100)
  cancel() -- $/cancelRequest: Neovim drops the -32800 answer
  -- The daemon answers the next request while the page is still loading.
  h.eq(cached(base .. "/slow?ms=1500&title=Loaded+Anyway"), nil, "the page was done before the next answer")
  h.eq(answered, false, "the cancelled hover's handler ran")
  -- The daemon's shared fetch was not cancelled with the hover: it finishes.
  h.expect(hover_until_done(buf, 1, 3, 10000).contents.value:find("Loaded Anyway", 1, true), "the page did not load")
end)

h.test(":LinkPeekSave and :LinkPeekSaved", function()
  markdown({ base .. "/page?title=Saved+Page" })
  local probe
  client.request(protocol.methods.saved, { limit = 1 }, function(err, result)
    probe = { err = err, result = result }
  end)
  h.wait_for(3000, "the saved probe", function()
    return probe
  end)
  with_notes(function(notes)
    h.expect(probe.err == nil, "saved: %s", vim.inspect(probe.err))
    vim.api.nvim_win_set_cursor(0, { 1, 3 })
    vim.cmd("LinkPeekSave")
    h.wait_for(5000, "the save", function()
      return #notes > 0
    end)
    h.eq(notes[1], "linkpeek: saved Saved Page", "save message")
    local select = vim.ui.select
    vim.ui.select = function(items, _, choose)
      choose(items[1])
    end
    vim.cmd("LinkPeekSaved")
    h.wait_for(3000, "the saved list", function()
      return #opened > 0
    end)
    vim.ui.select = select
    h.eq(opened[1], base .. "/page?title=Saved+Page", "opened")
  end)
end)

h.test("a daemon that dies is restarted and the buffers re-attached", function()
  local buf = markdown({ base .. "/page?title=After+Restart" })
  local old_pid, old_id = client.pid(), client.get().id
  h.expect(old_pid, "no daemon pid")
  vim.loop.kill(old_pid, "sigkill")
  h.wait_for(5000, "a new daemon", function()
    local c = client.get()
    return c and c.id ~= old_id and c.initialized and vim.lsp.buf_is_attached(buf, c.id)
  end)
  h.expect(client.pid() ~= old_pid, "same pid")
  local seen = preview_at(1, 3)
  h.eq(seen[#seen].lines[1], "After Restart", "a preview through the new daemon")
  preview.close()
end)

h.test(":checkhealth linkpeek", function()
  vim.cmd("checkhealth linkpeek")
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  h.expect(text:find("OK: binary: " .. bin, 1, true), "binary: %s", text)
  h.expect(text:find("OK: version: %d+%.%d+"), "version: %s", text)
  h.expect(text:find("OK: the daemon answers: linkpeek %d+%.%d+"), "daemon: %s", text)
  -- The earlier tests' fetches made the daemon create its cache directory.
  h.expect(text:find("OK: cache directory writable: " .. os.getenv("XDG_CACHE_HOME") .. "/linkpeek", 1, true),
    "cache: %s", text)
  h.expect(not text:find("ERROR", 1, true), "errors: %s", text)
end)

h.test("K opens Neovim's hover float with the daemon's card", function()
  markdown({ "See " .. base .. "/page?title=Pressed+K here" })
  vim.api.nvim_win_set_cursor(0, { 1, 8 })
  local before = {}
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    before[w] = true
  end
  vim.cmd("normal K")
  local text
  h.wait_for(5000, "a hover float", function()
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if not before[w] and vim.api.nvim_win_get_config(w).relative ~= "" then
        text = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false), "\n")
        return true
      end
    end
  end)
  h.expect(text:find("Pressed K", 1, true), "float: %s", text)
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd("doautocmd CursorMoved")
end)

h.test("auto_preview: CursorHold on a URL opens the card", function()
  linkpeek.setup({ binary = bin, allow_private_network = true, hover_timeout = 1.0, auto_preview = true })
  markdown({ "x " .. base .. "/page?title=On+Hold" })
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.cmd("doautocmd CursorHold")
  h.eq(preview.current, nil, "a preview on plain text")
  vim.api.nvim_win_set_cursor(0, { 1, 6 })
  local seen = {}
  preview.on_update = function(phase, lines)
    table.insert(seen, { phase = phase, lines = lines })
  end
  vim.cmd("doautocmd CursorHold")
  h.wait_for(5000, "the auto preview", function()
    return seen[#seen] and seen[#seen].phase == "done"
  end)
  preview.on_update = nil
  h.eq(seen[#seen].lines[1], "On Hold", "title")
  preview.close()
end)

h.test("comments = true attaches buffers of every filetype", function()
  local buf = vim.api.nvim_create_buf(true, false)
  vim.api.nvim_buf_set_name(buf, vim.fn.tempname() .. ".lua")
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, { "-- see " .. base .. "/page?title=In+A+Comment" })
  vim.bo[buf].filetype = "lua"
  h.eq(vim.lsp.buf_is_attached(buf, client.get().id), false, "a Lua buffer attached by default")
  linkpeek.setup({ binary = bin, allow_private_network = true, comments = true })
  h.wait_for(5000, "the daemon to attach a Lua buffer", function()
    local c = client.get()
    return c and c.initialized and vim.lsp.buf_is_attached(buf, c.id)
  end)
  local answers = vim.lsp.buf_request_sync(buf, protocol.methods.hover, {
    textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 0, character = 10 },
  }, 5000)
  local value = answers[client.get().id].result.contents.value
  h.expect(value:find("In A Comment", 1, true), "card: %s", value)
end)

h.test("a fetch that fails shows why in the float", function()
  markdown({ "http://127.0.0.1:9/closed-port" })
  local seen = preview_at(1, 3)
  local last = seen[#seen]
  h.eq(last.phase, "error", "phase")
  h.expect(last.lines[#last.lines]:find("^linkpeek: Metadata fetch failed"), "status: %s", vim.inspect(last.lines))
  preview.close()
end)

h.test("K without a link in a buffer with another language server: that server's hover", function()
  local fake = vim.split(assert(os.getenv("LINKPEEK_FAKE_LSP"), "LINKPEEK_FAKE_LSP not set"), "\n")
  local buf = markdown({ "plainword and " .. base .. "/page?title=Beside+Another" })
  local other = vim.lsp.start_client({ name = "fake", cmd = fake, root_dir = vim.loop.cwd() })
  vim.lsp.buf_attach_client(buf, other)
  h.wait_for(5000, "the fake server to start", function()
    local c = vim.lsp.get_client_by_id(other)
    return c and c.initialized
  end)
  local hover_mod = require("linkpeek.hover")
  local outcomes = {}
  hover_mod.on_answer = function(outcome)
    table.insert(outcomes, outcome)
  end
  local function float_text()
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(w).relative ~= "" then
        return table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false), "\n")
      end
    end
  end
  local ok, e = pcall(function()
    vim.api.nvim_win_set_cursor(0, { 1, 2 })
    vim.cmd("normal K")
    local text
    h.wait_for(5000, "the other server's hover float", function()
      text = float_text()
      return text and text:find("fake hover", 1, true)
    end)
    h.eq(outcomes, { "fallback" }, "K's outcome")
    h.expect(text:find("fake hover at 0:2", 1, true), "float: %s", text)
    -- On the link, linkpeek's card.
    vim.api.nvim_win_set_cursor(0, { 1, 0 })
    vim.cmd("doautocmd CursorMoved")
    outcomes = {}
    vim.api.nvim_win_set_cursor(0, { 1, 20 })
    vim.cmd("normal K")
    h.wait_for(5000, "linkpeek's card", function()
      return #outcomes > 0
    end)
    h.eq(outcomes, { "card" }, "K's outcome on the link")
  end)
  hover_mod.on_answer = nil
  vim.lsp.stop_client(other)
  if not ok then
    error(e, 0)
  end
end)

h.test("the card's host as the daemon shows it: lowercased, the port unless default, no user name", function()
  local cases = {
    { "https://Example.COM:443/x", "example.com" },
    { "http://example.com:80/", "example.com" },
    { "http://127.0.0.1:8080/p", "127.0.0.1:8080" },
    { "https://example.com:80/", "example.com:80" },
    { "https://user:secret@Example.com/x", "example.com" },
    { "http://[::1]:8080/", "[::1]:8080" },
    { "http://[::1]/", "[::1]" },
  }
  for _, c in ipairs(cases) do
    h.eq(card.host(c[1]), c[2], c[1])
  end
  h.eq(card.host("not a url"), nil, "not a URL")
end)

h.test("the private-address hint in a card: the daemon's gives way to the plugin's, in either format", function()
  local hint = "To read loopback and intranet pages, set allow_private_network = true in setup()."
  h.eq(card.with_private_network_hint({ "127.0.0.1:8", "(blocked: private address (set allowPrivateNetwork to allow))" }, false),
    { "127.0.0.1:8", "(blocked: private address)", hint }, "plain text")
  h.eq(card.with_private_network_hint({ "**127.0.0.1:8**", "", "*blocked: private address (set allowPrivateNetwork to allow)*" }, true),
    { "**127.0.0.1:8**", "", "*blocked: private address*", "", hint }, "Markdown: a paragraph of its own")
  h.eq(card.with_private_network_hint({ "127.0.0.1:8", "(blocked: private address)" }, false),
    { "127.0.0.1:8", "(blocked: private address)", hint }, "a daemon without its own hint")
  h.eq(card.with_private_network_hint({ "Title", "(timed out)" }, false), { "Title", "(timed out)" }, "another failure")
end)

h.test("progress stages in words: waiting for the server", function()
  h.eq(card.progress_status({ kind = "report", stage = "waiting", bytes = 0 }), "loading… waiting for the server",
    "waiting")
  h.eq(card.progress_status({ kind = "report", stage = "downloading", bytes = 512 }),
    "loading… downloading the page, 512 bytes", "downloading")
  h.eq(card.progress_status({ kind = "report", stage = "resolving" }), "loading… looking up the host", "resolving")
  h.eq(card.progress_status({ kind = "report", stage = "rendering" }), "loading… rendering", "a stage of a newer daemon")
end)

h.test("an image that was never verified (404) gives no image line", function()
  markdown({ base .. "/badimage" })
  local seen = preview_at(1, 3)
  h.eq(seen[#seen].phase, "done", "phase")
  h.eq(seen[#seen].lines, { "Bad Image Page", card.host(base) }, "the card")
  -- The control: the same card with a verified image has the line.
  h.eq(card.lines("http://a.example/", { title = "T", image = { url = "http://a.example/i.png", bytes = 10 } }, nil, 60),
    { "T", "a.example", "image: http://a.example/i.png" }, "a verified image")
end)

h.test("a site engine's preview: the site line under the host, as the daemon's cards make it", function()
  local pr = { engine = "github", kind = "pullRequest", state = "merged", number = 4123, comments = 12,
    labels = { "bug", "performance" } }
  h.eq(card.lines("https://github.com/o/r/pull/4123", { title = "Fix it", siteName = "GitHub", site = pr }, nil, 60),
    { "Fix it", "GitHub · github.com", "merged · #4123 · 12 comments · bug, performance" }, "a pull request")
  h.eq(card.site_line({ engine = "stackexchange", kind = "question", accepted = true, score = 231, answers = 14,
    tags = { "c++" } }), "✓ accepted · score 231 · 14 answers · c++", "a question")
  h.eq(card.site_line({ engine = "npm", kind = "package", version = "2.3.1", license = "MIT",
    createdAt = "2026-01-05T10:00:00Z" }), "v2.3.1 · MIT · 2026-01-05", "a package")
  h.eq(card.site_line({ engine = "stackexchange", kind = "answer", score = 1, answers = 1 }),
    "score 1 · 1 answer", "one answer, no accepted mark")
  h.eq(card.site_line({ engine = "x", kind = "issue", state = "open\n\27[31mred" }), "open [31mred",
    "control characters flattened")
  h.eq(card.site_line({ engine = "github", kind = "repository", stars = 5, license = "MIT", latestRelease = "v2" }),
    "★ 5 · MIT · latest v2", "a repository's latest release")
  h.eq(card.site_line({ engine = "github", kind = "commit", version = "abc1234", createdAt = "2026-01-05T10:00:00Z",
    checks = "success" }), "commit abc1234 · 2026-01-05 · ✓ checks passed", "a commit's checks")
  h.eq(card.site_line({ engine = "x", kind = "issue" }), nil, "nothing to say")
  h.eq(card.site_line("merged"), nil, "not an object")
  h.expect(vim.tbl_contains(require("linkpeek.protocol").fields, "site"), "site is a field the card shows")
end)

h.test("a server that thinks: the float says it is waiting for the server", function()
  markdown({ base .. "/slow?ms=2500&title=Thinking" })
  local seen = preview_at(1, 3)
  local statuses = {}
  for _, s in ipairs(seen) do
    table.insert(statuses, s.lines[#s.lines])
  end
  h.eq(seen[#seen].phase, "done", "phase")
  h.expect(vim.tbl_contains(statuses, "loading… waiting for the server"), "statuses: %s", vim.inspect(statuses))
  preview.close()
end)

h.test("a site that shows a bot check: the float and K's card say so", function()
  markdown({ base .. "/challenge?editor=nvim" })
  local seen = preview_at(1, 3)
  h.eq(seen[#seen].phase, "error", "phase")
  h.eq(seen[#seen].lines[#seen[#seen].lines],
    "linkpeek: Metadata fetch failed: the site answered with a bot check (a challenge page) instead of the page.",
    "the float's status")
  preview.close()
  local buf = markdown({ base .. "/challenge?editor=nvim-k" })
  h.eq(vim.split(hover(buf, 1, 3).contents.value, "\n", { plain = true }), { card.host(base), "(blocked: bot check)" },
    "K's card")
end)

-- In a daemon of its own: the 429 holds the fixture's host for 90 s.
h.test("a site that asks to slow down: the float says when to try again", function()
  with_daemon({ binary = bin, allow_private_network = true, hover_timeout = 1.0 }, function()
    markdown({ base .. "/slowdown" })
    local seen = preview_at(1, 3)
    h.eq(seen[#seen].phase, "error", "phase")
    h.eq(seen[#seen].lines[#seen[#seen].lines], "linkpeek: the site is limiting requests; try again in 90 s", "status")
    preview.close()
  end)
end)

h.test("failure reasons as sentences", function()
  local function fail(data, message)
    return { code = -32000, message = message or "x", data = vim.tbl_extend("force", { kind = "failed" }, data) }
  end
  h.eq(card.error_text(fail({ reason = "blockedAddress" },
    "Metadata fetch failed: refused to connect to 10.0.0.1, a loopback, private or reserved address; the allowPrivateNetwork setting (initializationOptions.allowPrivateNetwork, --allow-private-network) allows it.")),
    "linkpeek: Metadata fetch failed: refused to connect to 10.0.0.1, a loopback, private or reserved address; to read loopback and intranet pages, set allow_private_network = true in setup()",
    "blockedAddress: the daemon's hint gives way to the plugin's")
  h.eq(card.error_text(fail({ reason = "blockedAddress" }, "blocked: private address")),
    "linkpeek: blocked: private address; to read loopback and intranet pages, set allow_private_network = true in setup()",
    "blockedAddress without the daemon's hint")
  h.eq(card.error_text(fail({ reason = "blocked", wall = "consent" },
    "blocked: the site asked for cookie consent before showing the page")),
    "linkpeek: blocked: the site asked for cookie consent before showing the page", "blocked with a message")
  h.eq(card.error_text(fail({ reason = "blocked", wall = "login" }, "")),
    "linkpeek: blocked: the site asked for a login before showing the page", "blocked without a message")
  h.eq(card.error_text(fail({ reason = "rateLimited", retryAfter = 90 })),
    "linkpeek: the site is limiting requests; try again in 90 s", "rateLimited 90")
  h.eq(card.error_text(fail({ reason = "rateLimited", retryAfter = 7200 })),
    "linkpeek: the site is limiting requests; try again in 2 h", "rateLimited 7200")
  h.eq(card.error_text(fail({ reason = "rateLimited" })), "linkpeek: the site is limiting requests; try again later",
    "rateLimited without retryAfter")
  h.eq(card.error_text(fail({ reason = "httpStatus" }, "HTTP 404")), "linkpeek: HTTP 404", "another reason")
end)

h.test("where the binary is looked for: PATH, the release places, <prefix>/bin beside the plugin", function()
  local binary = require("linkpeek.binary")
  local home = vim.loop.os_homedir()
  h.eq(vim.list_slice(binary.places(), 1, 4), { home .. "/.local/bin/linkpeek", "/usr/local/bin/linkpeek",
    "/opt/linkpeek/bin/linkpeek", "/usr/bin/linkpeek" }, "the fixed places")
  h.eq(binary.beside_plugin("@/opt/x/share/linkpeek/editors/neovim/lua/linkpeek/binary.lua"), "/opt/x/bin/linkpeek",
    "installed from a release")
  h.eq(binary.beside_plugin("@/home/u/src/linkpeek/editors/neovim/lua/linkpeek/binary.lua"), nil, "a checkout")
  -- A tarball unpacked under a prefix: found with nothing on $PATH.
  local prefix = vim.fn.tempname()
  vim.fn.mkdir(prefix .. "/bin", "p")
  vim.loop.fs_copyfile(bin, prefix .. "/bin/linkpeek")
  vim.fn.setfperm(prefix .. "/bin/linkpeek", "rwxr-xr-x")
  local places, path = binary.places, vim.env.PATH
  binary.places = function()
    return { binary.beside_plugin("@" .. prefix .. "/share/linkpeek/editors/neovim/lua/linkpeek/binary.lua") }
  end
  vim.env.PATH = ""
  local found, named = binary.find(nil), binary.find("linkpeek")
  binary.places, vim.env.PATH = places, path
  h.eq(found, prefix .. "/bin/linkpeek", "found beside the plugin")
  h.eq(named, prefix .. "/bin/linkpeek", "binary = \"linkpeek\" (the old default) looks there too")
  vim.fn.delete(prefix, "rf")
end)

h.test("no binary: the install sentence once; K on a URL says it, K elsewhere is Neovim's K", function()
  local binary = require("linkpeek.binary")
  client.stop()
  local places, path = binary.places, vim.env.PATH
  local notes, words = {}, {}
  local notify = vim.notify
  vim.notify = function(msg)
    table.insert(notes, msg)
  end
  vim.api.nvim_create_user_command("LinkPeekTestWord", function(a)
    table.insert(words, a.args)
  end, { nargs = 1 })
  local ok, e = pcall(function()
    binary.places = function()
      return {}
    end
    vim.env.PATH = ""
    client.state.missing_said = false
    linkpeek.setup({ allow_private_network = true })
    local buf = vim.api.nvim_create_buf(true, false)
    vim.api.nvim_set_current_buf(buf)
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, { base .. "/page?title=No+Binary", "plainword" })
    vim.bo[buf].filetype = "markdown"
    vim.bo[buf].keywordprg = ":LinkPeekTestWord"
    local other = vim.api.nvim_create_buf(true, false)
    vim.bo[other].filetype = "markdown"
    h.eq(notes, { binary.INSTALL }, "said once for two buffers")
    vim.api.nvim_win_set_cursor(0, { 1, 10 })
    vim.cmd("normal K")
    h.eq(notes, { binary.INSTALL, binary.INSTALL }, "K on a URL")
    h.eq(words, {}, "keywordprg ran on a URL")
    vim.api.nvim_win_set_cursor(0, { 2, 2 })
    vim.cmd("normal K")
    h.eq(words, { "plainword" }, "K on a word")
    vim.cmd("LinkPeek " .. base .. "/page")
    h.eq(notes[3], binary.INSTALL, ":LinkPeek")
    -- auto_preview: resting on a URL does not repeat it.
    linkpeek.setup({ allow_private_network = true, auto_preview = true })
    vim.api.nvim_win_set_cursor(0, { 1, 10 })
    vim.cmd("doautocmd CursorHold")
    vim.cmd("doautocmd CursorHold")
    h.eq(#notes, 3, "messages after CursorHold on a URL")
    vim.cmd("checkhealth linkpeek")
    local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
    h.expect(text:find("ERROR: " .. binary.INSTALL, 1, true), "checkhealth: %s", text)
    vim.cmd("bwipe!")
    -- A `binary` setting that names no executable says so.
    linkpeek.setup({ binary = "/nonexistent/linkpeek" })
    local _, missing = require("linkpeek.binary").find("/nonexistent/linkpeek")
    h.expect(missing:find("^linkpeek: the `binary` setting `/nonexistent/linkpeek` is not an executable file"), "%s",
      missing)
  end)
  binary.places, vim.env.PATH, vim.notify = places, path, notify
  default_setup()
  client.start()
  if not ok then
    error(e, 0)
  end
end)

h.test("no xdg-open: :LinkPeekSaved says so in a sentence", function()
  local saved = require("linkpeek.saved")
  local notes = {}
  local notify, path = vim.notify, vim.env.PATH
  vim.notify = function(msg)
    table.insert(notes, msg)
  end
  vim.env.PATH = ""
  local ok, e = pcall(saved.default_open, "https://a.example/x")
  vim.notify, vim.env.PATH = notify, path
  h.expect(ok, "an error: %s", tostring(e))
  h.eq(notes, { "linkpeek: cannot open https://a.example/x: `xdg-open` is not installed (install xdg-utils, or give setup() an `open` function)" },
    "message")
end)

-- K on line 1, column 3 of the current buffer: the hover's {outcome, lines}.
local function k_answer()
  local hover_mod = require("linkpeek.hover")
  local answer
  hover_mod.on_answer = function(outcome, lines)
    answer = { outcome = outcome, lines = lines }
  end
  vim.api.nvim_win_set_cursor(0, { 1, 3 })
  vim.cmd("normal K")
  h.wait_for(5000, "K's answer", function()
    return answer ~= nil
  end)
  hover_mod.on_answer = nil
  return answer
end

h.test("a daemon that refuses loopback: the preview's failure names the setting", function()
  with_daemon({ binary = bin, allow_private_network = false, hover_timeout = 1.0 }, function()
    markdown({ base .. "/page?title=Private" })
    local seen = preview_at(1, 3)
    local last = seen[#seen]
    h.eq(last.phase, "error", "phase")
    local status = last.lines[#last.lines]
    h.expect(status:find("^linkpeek: Metadata fetch failed: refused to connect to 127%.0%.0%.1, a loopback, private or reserved address; to read loopback and intranet pages, set allow_private_network = true in setup%(%)$"),
      "status: %s", vim.inspect(last.lines))
    h.expect(not status:find(protocol.allow_private_network, 1, true), "the daemon's hint too: %s", status)
    preview.close()
    -- K's card says it too.
    local answer = k_answer()
    h.eq(answer.outcome, "card", "K's outcome")
    -- One hint, naming the plugin's setting: the daemon's gave way to it.
    h.eq(answer.lines, { card.host(base), "(blocked: private address)",
      "To read loopback and intranet pages, set allow_private_network = true in setup()." }, "K's card")
  end)
end)

-- K's card under hover_fetch, hover_allow and hover_deny (the daemon's hover
-- setting): a held URL is not fetched; Tests/editors/test_neovim.py checks
-- that the fixture saw only the allowed one (nvimhover=3).
h.test("hover_fetch, hover_allow and hover_deny decide whether K fetches", function()
  local function card_with(options, n)
    local answer
    with_daemon(vim.tbl_extend("force", { binary = bin, allow_private_network = true, hover_timeout = 1.0 }, options),
      function()
        markdown({ base .. "/page?title=Held" .. n .. "&nvimhover=" .. n })
        answer = k_answer()
      end)
    return table.concat(answer.lines, "\n")
  end
  local held = "not fetched: hover fetching is off for 127.0.0.1"
  local text = card_with({ hover_fetch = "cacheOnly" }, 1)
  h.expect(text:find(held, 1, true), "cacheOnly card: %s", text)
  text = card_with({ hover_fetch = "always", hover_deny = { "127.0.0.1" } }, 2)
  h.expect(text:find(held, 1, true), "denied card: %s", text)
  text = card_with({ hover_fetch = "allowList", hover_allow = { "127.0.0.1" } }, 3)
  h.expect(text:find("Held3", 1, true) and not text:find(held, 1, true), "allowed card: %s", text)
  local ok, e = pcall(linkpeek.setup, { binary = bin, hover_fetch = "sometimes" })
  default_setup()
  h.expect(not ok and tostring(e):find("hover_fetch must be one of always, allowList, cacheOnly", 1, true),
    "bad hover_fetch: %s", tostring(e))
end)

-- Last: it replaces the daemon with one that exits at once, counting its starts.
h.test("a daemon that keeps dying is restarted with backoff, then left alone", function()
  client.stop()
  local count_file = vim.fn.tempname()
  local fake = vim.fn.tempname()
  vim.fn.writefile({ "#!/bin/sh", "echo started >> '" .. count_file .. "'", "exit 1" }, fake)
  vim.fn.setfperm(fake, "rwx------")
  with_notes(function(notes)
    linkpeek.setup({ binary = fake, restart = { delay_ms = 20, max_delay_ms = 80, max = 3, reset_after_ms = 60000 } })
    client.start()
    h.wait_for(5000, "the give-up message", function()
      return vim.tbl_contains(notes, "linkpeek: the daemon keeps exiting; not restarting it (see :checkhealth linkpeek)")
    end)
    vim.wait(300)
    h.eq(#vim.fn.readfile(count_file), 4, "daemon starts (the first and three restarts)")
  end)
end)

h.test("previews are asked in the editor's language (v:lang); accept_language overrides it", function()
  -- Tests/editors/test_neovim.py starts Neovim with LANG=de_DE.UTF-8; the
  -- daemon's own locale is made C here, so only the plugin can say German.
  h.eq(vim.v.lang, "de_DE.UTF-8", "v:lang")
  local saved = { LC_ALL = vim.env.LC_ALL, LC_MESSAGES = vim.env.LC_MESSAGES, LANG = vim.env.LANG }
  vim.env.LC_ALL, vim.env.LC_MESSAGES, vim.env.LANG = nil, nil, "C"
  local function title_with(language, n)
    client.stop()
    linkpeek.setup({ binary = bin, allow_private_network = true, hover_timeout = 1.0, accept_language = language })
    markdown({ base .. "/lang?nvim=" .. n })
    local seen = preview_at(1, 3)
    preview.close()
    h.eq(seen[#seen].phase, "done", "phase")
    return seen[#seen].lines[1]
  end
  local ok, e = pcall(function()
    h.eq(title_with(nil, 1), "lang de-DE,de;q=0.9", "the editor's language")
    h.eq(title_with("pt-BR, pt;q=0.8", 2), "lang pt-BR, pt;q=0.8", "accept_language")
    -- "" sends none, though the daemon's own locale would say German.
    vim.env.LANG = "de_DE.UTF-8"
    h.eq(title_with("", 3), "lang none", 'accept_language ""')
  end)
  for k, v in pairs(saved) do
    vim.env[k] = v
  end
  client.stop()
  default_setup()
  if not ok then
    error(e, 0)
  end
end)

h.test("a POSIX locale name as an Accept-Language, as the daemon reads its own", function()
  h.eq(protocol.accept_language("de_DE.UTF-8"), "de-DE,de;q=0.9", "de_DE.UTF-8")
  h.eq(protocol.accept_language("fr"), "fr", "fr")
  h.eq(protocol.accept_language("es_419@x"), "es-419,es;q=0.9", "es_419@x")
  h.eq(protocol.accept_language("C"), nil, "C")
  h.eq(protocol.accept_language("C.UTF-8"), nil, "C.UTF-8")
  h.eq(protocol.accept_language("POSIX"), nil, "POSIX")
  h.eq(protocol.accept_language("de_DEU"), nil, "de_DEU")
  h.eq(protocol.init_options({ accept_language = nil }).acceptLanguage, protocol.editor_language(), "default")
end)

h.test("site engines: each link's card has its facts line, in the hover and in :LinkPeek", function()
  -- Tests/editors/editor_sites.py serves the APIs and names the cases: { url, title, facts line }.
  local cases = vim.json.decode((assert(os.getenv("LINKPEEK_SITE_CASES"), "LINKPEEK_SITE_CASES not set")))
  h.expect(#cases >= 3, "too few cases: %s", vim.inspect(cases))
  for _, case in ipairs(cases) do
    local url, title, facts = case[1], case[2], case[3]
    local buf = markdown({ url })
    needs_hover()
    local value = hover_until_done(buf, 1, 3, 8000).contents.value
    h.expect(value:find(title, 1, true) and value:find(facts, 1, true), "%s: the hover card %s", url, value)
    local done = preview_at(1, 3)
    local lines = done[#done].lines
    h.eq(lines[1], title, url .. ": the float's title")
    h.expect(vim.tbl_contains(lines, facts), "%s: the float's lines %s", url, vim.inspect(lines))
    preview.close()
  end
end)

local failed = h.run()
client.stop()
vim.wait(2000, function()
  return client.pid() == nil and #vim.lsp.get_active_clients() == 0
end, 20)
vim.cmd(failed == 0 and "qa!" or "cquit 1")
