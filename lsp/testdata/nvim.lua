-- Drives Neovim's built-in LSP client against `sdp lsp` (lsp/nvim_test.go):
-- opens a schema, waits for diagnostics, reads a hover, jumps to a
-- definition, formats, fixes the error, waits for the diagnostics to
-- clear and reads the hover again. Every step writes a line to $SDP_OUT;
-- the Go test checks them.
-- Works with Neovim 0.7 (Debian 12) and later.
local out = {}
local function log(key, value)
  table.insert(out, key .. "\t" .. tostring(value):gsub("\n", "\\n"))
end
local function finish()
  vim.fn.writefile(out, os.getenv("SDP_OUT"))
  vim.cmd("qa!")
end

local ok, err = pcall(function()
  local file = os.getenv("SDP_FILE")
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = "sdp",
    cmd = { os.getenv("SDP_BIN"), "lsp" },
    root_dir = vim.fn.fnamemodify(file, ":h"),
  })
  if not id then
    log("error", "start_client failed")
    return
  end
  vim.lsp.buf_attach_client(buf, id)
  log("attached", id)

  -- Diagnostics arrive after didOpen.
  vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    log("diagnostic", d.lnum .. ":" .. d.col .. " " .. d.message)
  end

  -- Hover on the field `where` (line 13, 0-based 12).
  local uri = vim.uri_from_bufnr(buf)
  local function hover(key)
    local res = vim.lsp.buf_request_sync(buf, "textDocument/hover",
      { textDocument = { uri = uri }, position = { line = 12, character = 5 } }, 10000)
    for _, r in pairs(res or {}) do
      if r.result then log(key, r.result.contents.value) end
      if r.err then log("error", "hover: " .. vim.inspect(r.err)) end
    end
  end
  hover("hover_with_errors")

  -- Jump to the definition of Point from its use in `where: Point`.
  vim.api.nvim_win_set_cursor(0, { 13, 12 })
  vim.lsp.buf.definition()
  vim.wait(10000, function() return vim.api.nvim_win_get_cursor(0)[1] ~= 13 end, 20)
  local cur = vim.api.nvim_win_get_cursor(0)
  log("definition", cur[1] .. ":" .. cur[2])

  -- Format the buffer with the server's formatting.
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ timeout_ms = 10000 })
  else
    vim.lsp.buf.formatting_sync(nil, 10000)
  end
  log("formatted", table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n"))

  -- Fix the unknown type: the diagnostics clear.
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local fixed = line:gsub("Kindd", "Kind")
    if fixed ~= line then vim.api.nvim_buf_set_lines(buf, i - 1, i, false, { fixed }) end
  end
  vim.wait(10000, function() return #vim.diagnostic.get(buf) == 0 end, 20)
  log("diagnostics_after_fix", #vim.diagnostic.get(buf))
  hover("hover")

  vim.lsp.stop_client(id)
end)
if not ok then log("error", err) end
finish()
