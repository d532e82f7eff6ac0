-- SPDX-License-Identifier: Apache-2.0
-- Headless Neovim 0.7 attaches `schedlint server` with vim.lsp.start_client (through the recipe
-- docs/editors/schedlint_lsp.lua, in a git work tree: one client for its root) and must show its
-- diagnostics: the rule ids, and columns that land on the offending text of a line with
-- non-ASCII characters (Neovim converts the server's UTF-16 ranges to byte columns); then a
-- Kustomize patch opened shows the finding of the build that uses it.
-- Run by tests/lsp/run: nvim --headless --clean -c 'luafile tests/lsp/nvim.lua' FILE, with
-- $SCHEDLINT the server, $DOCS docs/editors and $OUT the file the result is written to.
local out = assert(io.open(os.getenv('OUT'), 'w'))
local function finish(ok, msg)
  out:write(msg .. '\n')
  out:close()
  vim.cmd(ok and 'qa!' or 'cq!')
end
-- the recipe of docs/editors.md, docs/editors/schedlint_lsp.lua, as a user installs it
package.path = os.getenv('DOCS') .. '/?.lua;' .. package.path
require('schedlint_lsp').setup({ cmd = { os.getenv('SCHEDLINT'), 'server', '--debounce-ms', '20' } })
vim.cmd('set filetype=yaml')   -- FileType again, now that the recipe listens
local id = require('schedlint_lsp').clients[vim.fn.getcwd()]
if not id then
  finish(false, 'FAIL: the recipe started no client for the root ' .. vim.fn.getcwd())
  return
end
-- as long as it takes (a loaded machine is slow): meson's timeout ends a test that hangs
local got = vim.wait(2 ^ 31 - 1, function() return #vim.diagnostic.get(0) >= 3 end, 50)
local lines = {}
local by = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?'
  by[code] = d
  table.insert(lines, string.format('%d:%d-%d:%d %s [%s]', d.lnum + 1, d.col + 1, d.end_lnum + 1,
    d.end_col + 1, code, d.source or '?'))
end
table.sort(lines)
local report = table.concat(lines, '\n')
if not got then
  finish(false, 'FAIL: no diagnostics\n' .. report)
  return
end
local text = vim.api.nvim_buf_get_lines(0, 5, 6, false)[1]
local st = by['schema-type']
local ns = by['invalid-node-selector']
if not st or not ns or not by['gpu-request-without-limit'] then
  finish(false, 'FAIL: missing a rule\n' .. report)
  return
end
-- byte columns of the offending text, after "ü" (2 bytes) and the rocket (4 bytes, 2 UTF-16 units)
local want_st = text:find('true', 1, true) - 1
local want_ns = text:find('"Z', 1, true) - 1
if st.lnum ~= 5 or st.col ~= want_st or st.end_col ~= want_st + 4 or ns.col ~= want_ns
    or text:sub(ns.col + 1, ns.end_col) ~= '"Zürich 🚀"' then
  finish(false, string.format('FAIL: columns: schema-type %d-%d (want %d-%d), invalid-node-selector %d-%d (want %d)\n%s',
    st.col, st.end_col, want_st, want_st + 4, ns.col, ns.end_col, want_ns, report))
  return
end
-- a Kustomize patch (issue 29): the finding of the overlay's build that uses it, at its line
vim.cmd('edit kust/overlay/gpu.yaml')
vim.cmd('set filetype=yaml')
local patch = vim.api.nvim_get_current_buf()
local seen = vim.wait(2 ^ 31 - 1, function() return #vim.diagnostic.get(patch) >= 1 end, 50)
local pd = seen and vim.diagnostic.get(patch)[1]
local pcode = pd and (pd.code or (pd.user_data and pd.user_data.lsp and pd.user_data.lsp.code))
if not pd or pcode ~= 'gpu-request-without-limit' or pd.lnum ~= 11 then
  finish(false, 'FAIL: the patch: ' .. vim.inspect(vim.diagnostic.get(patch)) .. '\n' .. report)
  return
end
report = report .. string.format('\nkust/overlay/gpu.yaml %d:%d %s', pd.lnum + 1, pd.col + 1, pcode)
vim.lsp.stop_client(id)
finish(true, 'OK\n' .. report)
