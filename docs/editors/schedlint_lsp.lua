-- SPDX-License-Identifier: Apache-2.0
-- schedlint_lsp.lua: `schedlint server` in Neovim 0.7+ without plugins: diagnostics as you type,
-- quick fixes (vim.lsp.buf.code_action), fmt (vim.lsp.buf.formatting; 0.8+: format) and the
-- rule's documentation on hover (vim.lsp.buf.hover). One server per repository: the root is
-- the directory that holds .git above the file, else the working directory, and the server
-- starts there, so the project and the configs resolve as `schedlint check` run there does.
--
-- Install: copy it to ~/.config/nvim/lua/schedlint_lsp.lua, then in init.lua
--   require("schedlint_lsp").setup()
--   -- or setup({ cmd = { "/path/to/schedlint", "server" }, init_options = { ignore = { "gpu" } } })
-- Tested headless in Neovim 0.7 by tests/lsp/run nvim.
local M = { clients = {} }

function M.setup(opts)
  opts = opts or {}
  local cmd = opts.cmd or { "schedlint", "server" }
  vim.api.nvim_create_autocmd("FileType", {
    pattern = "yaml",
    callback = function(args)
      local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ":p:h")
      local git = vim.fn.finddir(".git", dir .. ";")
      local root = git ~= "" and vim.fn.fnamemodify(git, ":p:h:h") or vim.fn.getcwd()
      local id = M.clients[root]
      if not id or not vim.lsp.get_client_by_id(id) then
        id = vim.lsp.start_client({
          name = "schedlint",
          cmd = cmd,
          root_dir = root,
          init_options = opts.init_options,
        })
        M.clients[root] = id
      end
      if id then
        vim.lsp.buf_attach_client(args.buf, id)
      end
    end,
  })
end

return M
