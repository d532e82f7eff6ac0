-- SPDX-License-Identifier: Apache-2.0
-- schedlint.lua: fixes a YAML buffer with `schedlint fmt` each time it is written, for
-- Neovim 0.7+ without plugins (conform.nvim, which needs 0.10, is the other way: docs/editors.md).
-- The buffer, not the file on disk, goes to `schedlint fmt --stdin-filename PATH -` on stdin
-- (vim.fn.jobstart: vim.system is 0.10+, and vim.fn.system mixes stderr into the output);
-- the lines that differ are replaced only when schedlint exits 0 and printed something.
-- A schedlint that is missing, fails (a YAML syntax error, a bad config: exit 2), is killed or
-- takes longer than timeout_ms leaves the buffer as it was, with a warning, and the write
-- goes ahead.
--
-- Install: copy it to ~/.config/nvim/lua/schedlint.lua, then in init.lua
--   require("schedlint").setup()            -- or setup({ command = "/path/to/schedlint" })
-- It runs on writes of *.yaml, *.yml and buffers with 'filetype' yaml; :SchedlintFmt fixes by
-- hand. Tested headless in Neovim 0.7 by tests/editors/run.
local M = { command = "schedlint", timeout_ms = 5000 }

local function warn(msg)
  vim.notify("schedlint fmt: " .. msg .. "; the buffer is left as it is", vim.log.levels.WARN)
end

-- The output of cmd given input (a list of lines, sent with a newline after each), as lines,
-- with its exit status and its first line of stderr; nil and a reason when it did not run.
local function run(cmd, input, timeout_ms)
  local out, err = { "" }, { "" }
  local ok, job = pcall(vim.fn.jobstart, cmd, {
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data) out = data end,
    on_stderr = function(_, data) err = data end,
  })
  if not ok or job <= 0 then
    return nil, "cannot run " .. cmd[1]
  end
  -- A schedlint that exits without reading all its input closes the pipe: not an error here.
  pcall(vim.fn.chansend, job, vim.list_extend(vim.list_slice(input), { "" }))
  pcall(vim.fn.chanclose, job, "stdin")
  local status = vim.fn.jobwait({ job }, timeout_ms)[1]
  if status == -1 then
    vim.fn.jobstop(job)
    return nil, "no answer in " .. timeout_ms .. " ms"
  end
  if out[#out] == "" then
    table.remove(out) -- the newline that ends the output
  end
  return out, status, err[1]
end

function M.format(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if vim.fn.executable(M.command) ~= 1 then
    return warn(M.command .. " is not on PATH")
  end
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  if #lines == 1 and lines[1] == "" then
    return
  end
  local cmd = { M.command, "fmt" }
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name ~= "" then
    vim.list_extend(cmd, { "--stdin-filename", name })
  end
  table.insert(cmd, "-")
  local out, status, err = run(cmd, lines, M.timeout_ms)
  if not out then
    return warn(status)
  elseif status ~= 0 then
    return warn("exit " .. status .. ((err and err ~= "") and (": " .. err) or ""))
  elseif #out == 0 then
    return warn("no output")
  end
  -- Replace only the lines between the common head and tail: marks and extmarks elsewhere stay.
  local first, a, o = 1, #lines, #out
  while first <= a and first <= o and lines[first] == out[first] do
    first = first + 1
  end
  while a >= first and o >= first and lines[a] == out[o] do
    a, o = a - 1, o - 1
  end
  if first > a and first > o then
    return -- nothing to fix
  end
  vim.api.nvim_buf_set_lines(bufnr, first - 1, a, false, vim.list_slice(out, first, o))
end

function M.setup(opts)
  M.command = (opts and opts.command) or M.command
  M.timeout_ms = (opts and opts.timeout_ms) or M.timeout_ms
  vim.api.nvim_create_user_command("SchedlintFmt", function() M.format() end, {})
  local group = vim.api.nvim_create_augroup("schedlint", { clear = true })
  vim.api.nvim_create_autocmd("BufWritePre", {
    group = group,
    callback = function(ev)
      local file = vim.api.nvim_buf_get_name(ev.buf)
      if vim.bo[ev.buf].filetype == "yaml" or file:match("%.ya?ml$") then
        M.format(ev.buf)
      end
    end,
  })
  return M
end

return M
