-- pgconflint: detect PostgreSQL configuration files.
--   filetype "pgconf": postgresql.conf, postgresql.auto.conf (anywhere), and
--   *.conf files in a conf.d directory somewhere below a directory named
--   "postgresql" (e.g. /etc/postgresql/17/main/conf.d/tuning.conf);
--   filetype "pghba": pg_hba.conf (anywhere);
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
      ['.*/postgresql/.*/conf%.d/[^/]*%.conf'] = 'pgconf',
      ['.*/postgresql/conf%.d/[^/]*%.conf'] = 'pgconf',
    },
  })
end
-- Neovim 0.7 reads vim.filetype.add only with g:do_filetype_lua set; the
-- same rules as autocommands work everywhere.
if vim.fn.has('nvim-0.8') == 0 then
  vim.cmd([[
    augroup pgconflint_ftdetect
      autocmd!
      autocmd BufNewFile,BufRead postgresql.conf,postgresql.auto.conf setfiletype pgconf
      autocmd BufNewFile,BufRead */postgresql/*/conf.d/*.conf,*/postgresql/conf.d/*.conf setfiletype pgconf
      autocmd BufNewFile,BufRead pg_hba.conf setfiletype pghba
      autocmd BufNewFile,BufRead pg_ident.conf setfiletype pgident
    augroup END
  ]])
end
