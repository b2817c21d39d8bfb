-- Which *.conf files are PostgreSQL's (ftdetect/pgconf.lua asks): by name
-- (postgresql.conf, postgresql.auto.conf, pg_hba.conf, pg_ident.conf, set
-- there), by a first-line marker, or by the data directory around them:
--   "# pgconflint: file-type=conf|hba|ident" on the first line;
--   a .conf beside a postgresql.conf (its data or configuration directory);
--   a .conf in a directory that the postgresql.conf (or pg_hba.conf) of the
--   directory above names in an include line (conf.d/10-memory.conf with
--   `include_dir = 'conf.d'`).
-- Another program's conf.d (nginx's) has no such postgresql.conf: no match.
local M = {}

local marker_types = { conf = 'pgconf', hba = 'pghba', ident = 'pgident' }

local function lines_of(path, limit)
  local out = {}
  local f = io.open(path, 'r')
  if not f then
    return out
  end
  for line in f:lines() do
    table.insert(out, line)
    if #out >= limit then
      break
    end
  end
  f:close()
  return out
end

local function is_file(path)
  local stat = vim.loop.fs_stat(path)
  return stat ~= nil and stat.type == 'file'
end

local function dirname(path)
  return path:match('^(.*)/[^/]*$') or '.'
end

local function basename(path)
  return path:match('([^/]*)$')
end

-- Whether an include line of `conf` (include, include_if_exists, include_dir)
-- names `name` as a component of its path (`include_dir = 'conf.d'`).
local function includes(conf, name)
  for _, line in ipairs(lines_of(conf, 5000)) do
    local value = line:match("^%s*include[%w_]*%s*=%s*'?([^'#]*)") or line:match("^%s*include[%w_]*%s+'?([^'#]*)")
    if value then
      for part in vim.trim(value):gmatch('[^/]+') do
        if part == name then
          return true
        end
      end
    end
  end
  return false
end

--- The file type of `path`, or nil when it is not PostgreSQL's.
function M.filetype(path)
  if not path or not path:match('%.conf$') then
    return nil
  end
  local first = lines_of(path, 1)[1]
  local kind = first and first:match('^%s*#%s*pgconflint:%s*file%-type%s*=%s*(%a+)')
  if kind then
    return marker_types[kind]
  end
  local dir = dirname(path)
  if is_file(dir .. '/postgresql.conf') then
    return 'pgconf'
  end
  local parent, sub = dirname(dir), basename(dir)
  if is_file(parent .. '/postgresql.conf') and includes(parent .. '/postgresql.conf', sub) then
    return 'pgconf'
  end
  if is_file(parent .. '/pg_hba.conf') and includes(parent .. '/pg_hba.conf', sub) then
    return 'pghba'
  end
  return nil
end

--- Sets the current buffer's file type when `path` is PostgreSQL's (Neovim 0.7's autocommand).
function M.set(path)
  local ft = M.filetype(path)
  if ft then
    vim.cmd('setfiletype ' .. ft)
  end
end

return M
