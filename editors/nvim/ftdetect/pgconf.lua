-- pgconflint: detect PostgreSQL configuration files.
--   filetype "pgconf": postgresql.conf, postgresql.auto.conf (anywhere), and
--   other *.conf files where lua/pgconflint/detect.lua finds them
--   PostgreSQL's: beside a postgresql.conf, in a directory that the
--   postgresql.conf above names in an include line (conf.d/ with
--   `include_dir = 'conf.d'`), or marked on their first line
--   (`# pgconflint: file-type=conf|hba|ident`); never another program's conf.d;
--   filetype "pghba": pg_hba.conf (anywhere), and files its include lines name;
--   filetype "pgident": pg_ident.conf (anywhere).
if vim.filetype and vim.filetype.add then
  vim.filetype.add({
    filename = {
      ['postgresql.conf'] = 'pgconf',
      ['postgresql.auto.conf'] = 'pgconf',
      ['pg_hba.conf'] = 'pghba',
      ['pg_ident.conf'] = 'pgident',
    },
    pattern = {
      ['.*%.conf'] = {
        function(path)
          return require('pgconflint.detect').filetype(path)
        end,
        { priority = 10 },
      },
    },
  })
end
-- Neovim 0.7 reads vim.filetype.add only with g:do_filetype_lua set; the
-- same rules as autocommands work everywhere (the names first: setfiletype
-- keeps the first file type set).
if vim.fn.has('nvim-0.8') == 0 then
  vim.cmd([[
    augroup pgconflint_ftdetect
      autocmd!
      autocmd BufNewFile,BufRead postgresql.conf,postgresql.auto.conf setfiletype pgconf
      autocmd BufNewFile,BufRead pg_hba.conf setfiletype pghba
      autocmd BufNewFile,BufRead pg_ident.conf setfiletype pgident
      autocmd BufNewFile,BufRead *.conf lua require('pgconflint.detect').set(vim.fn.expand('<afile>:p'))
    augroup END
  ]])
end
