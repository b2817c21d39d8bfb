-- End-to-end in headless Neovim (driven by test_nvim.py): the plugin in
-- editors/nvim detects the file type, starts `pgconflint server`, receives
-- the diagnostics of a bad file, applies a code action and sees the finding
-- go. Writes what it saw to $PGC_RESULT as JSON and quits.
local repo, bin, file, result_path = os.getenv('PGC_REPO'), os.getenv('PGCONFLINT'), os.getenv('PGC_FILE'),
  os.getenv('PGC_RESULT')
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
  if result.filetype ~= 'pgconf' then
    return finish(false, 'filetype ' .. result.filetype)
  end
  if not vim.wait(20000, function() return #vim.diagnostic.get(buf) >= 2 end, 50) then
    return finish(false, 'no diagnostics')
  end
  result.before = codes(buf)
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
      if a.title == 'Rename to work_mem' then
        action = a
        result.encoding = vim.lsp.get_client_by_id(client_id).offset_encoding
      end
    end
  end
  if not action then
    return finish(false, 'no rename action')
  end
  vim.lsp.util.apply_workspace_edit(action.edit, result.encoding or 'utf-16')
  result.lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  if not vim.wait(20000, function() return #vim.diagnostic.get(buf) == 1 end, 50) then
    result.after = codes(buf)
    return finish(false, 'the finding did not go')
  end
  result.after = codes(buf)
  finish(true, '')
end)
if not ok then
  finish(false, tostring(err))
end
