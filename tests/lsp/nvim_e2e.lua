-- End-to-end in headless Neovim (driven by test_nvim.py): the plugin in
-- editors/nvim detects the file type, starts `pgconflint server`, receives
-- the diagnostics of a bad file and, if asked to, applies a code action and
-- sees the finding go. Writes what it saw to $PGC_RESULT as JSON and quits.
--
-- The environment says what to open and what to expect:
--   PGC_FILE         the file to edit
--   PGC_FILETYPE     the file type the plugin must detect (default pgconf)
--   PGC_DIAGNOSTICS  how many diagnostics to wait for (default 2)
--   PGC_ACTION       the title of the code action to apply on the first line
--                    (default "Rename to work_mem"); empty: apply none and
--                    stop once the diagnostics are there
local repo, bin, file, result_path = os.getenv('PGC_REPO'), os.getenv('PGCONFLINT'), os.getenv('PGC_FILE'),
  os.getenv('PGC_RESULT')
local want_filetype = os.getenv('PGC_FILETYPE') or 'pgconf'
local want_count = tonumber(os.getenv('PGC_DIAGNOSTICS') or '2')
local want_action = os.getenv('PGC_ACTION') or 'Rename to work_mem'
local result = { steps = {} }

local function finish(ok, why)
  result.ok = ok
  result.why = why
  local f = io.open(result_path, 'w')
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd(ok and 'qall!' or 'cquit!')
end

local function codes(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(out, (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or d.code or '?')
  end
  table.sort(out)
  return out
end

local ok, err = pcall(function()
  vim.opt.runtimepath:append(repo .. '/editors/nvim')
  vim.cmd('runtime! ftdetect/pgconf.lua')
  vim.cmd('runtime! plugin/pgconf.lua')
  require('pgconflint').setup({ cmd = { bin, 'server' } })
  vim.cmd('filetype on')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[buf].filetype
  if result.filetype ~= want_filetype then
    return finish(false, 'filetype ' .. result.filetype)
  end
  if not vim.wait(20000, function() return #vim.diagnostic.get(buf) >= want_count end, 50) then
    result.before = codes(buf)
    return finish(false, 'no diagnostics')
  end
  result.before = codes(buf)
  result.clients = {}
  -- vim.lsp.get_clients since Neovim 0.10, vim.lsp.buf_get_clients before.
  local attached = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = buf }) or vim.lsp.buf_get_clients(buf)
  for _, client in pairs(attached) do
    table.insert(result.clients, client.name)
  end
  if want_action == '' then
    return finish(true, '')
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = 0 } },
    context = { diagnostics = {} },
  }
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000) or {}
  local action
  for client_id, response in pairs(responses) do
    for _, a in ipairs(response.result or {}) do
      table.insert(result.steps, a.title)
      if a.title == want_action then
        action = a
        result.encoding = vim.lsp.get_client_by_id(client_id).offset_encoding
      end
    end
  end
  if not action then
    return finish(false, 'no action ' .. want_action)
  end
  vim.lsp.util.apply_workspace_edit(action.edit, result.encoding or 'utf-16')
  result.lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  if not vim.wait(20000, function() return #vim.diagnostic.get(buf) == #result.before - 1 end, 50) then
    result.after = codes(buf)
    return finish(false, 'the finding did not go')
  end
  result.after = codes(buf)
  finish(true, '')
end)
if not ok then
  finish(false, tostring(err))
end
