-- pgconflint's language server (`pgconflint server`) for "pgconf"
-- (postgresql.conf and its includes), "pghba" (pg_hba.conf) and "pgident"
-- (pg_ident.conf) buffers.
-- Neovim 0.8 and later start it with vim.lsp.start (one client per root);
-- Neovim 0.7 with vim.lsp.start_client and vim.lsp.buf_attach_client.
--
--   require('pgconflint').setup({
--     cmd = { 'pgconflint', 'server' },                  -- the binary and its arguments
--     init_options = { profile = { ram = '64GB', cpus = 16, storage = 'nvme' },
--                      ['pg-version'] = 17, run = 'onType' },
--   })
local M = {}

-- The file types the server is started for. It tells the kinds of file apart
-- by their names.
M.filetypes = { 'pgconf', 'pghba', 'pgident' }

M.config = {
  cmd = { 'pgconflint', 'server' },
  init_options = vim.empty_dict(),
  -- The directory of the nearest of these above the file is the root.
  root_markers = { '.pgconflint.toml', '.git' },
}

-- The client id of each root (Neovim 0.7, which has no vim.lsp.start).
local clients = {}

local function root_dir(file)
  local dir = vim.fn.fnamemodify(file, ':p:h')
  for _, marker in ipairs(M.config.root_markers) do
    local found = vim.fn.findfile(marker, dir .. ';')
    if found == '' then
      found = vim.fn.finddir(marker, dir .. ';')
    end
    if found ~= '' then
      return (vim.fn.fnamemodify(found, ':p:h'):gsub('/%.git$', ''))
    end
  end
  return dir
end

--- Starts (or reuses) the server for buffer `bufnr`; returns the client id.
function M.start(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' then
    return nil
  end
  local root = root_dir(name)
  local config = {
    name = 'pgconflint',
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = M.config.init_options,
  }
  if vim.lsp.start then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = clients[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(config)
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- Merges `opts` into the configuration and starts the server for every
--- buffer of one of M.filetypes, present and future.
function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', M.config, opts or {})
  local group = vim.api.nvim_create_augroup('pgconflint_lsp', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    pattern = M.filetypes,
    group = group,
    callback = function(args)
      M.start(args.buf)
    end,
  })
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.tbl_contains(M.filetypes, vim.bo[buf].filetype) then
      M.start(buf)
    end
  end
end

return M
