-- pgconflint: detect PostgreSQL configuration files as filetype "pgconf".
--   postgresql.conf, postgresql.auto.conf (anywhere), and *.conf files in a
--   conf.d directory somewhere below a directory named "postgresql"
--   (e.g. /etc/postgresql/17/main/conf.d/tuning.conf).
if vim.filetype and vim.filetype.add then
  vim.filetype.add({
    filename = {
      ['postgresql.conf'] = 'pgconf',
      ['postgresql.auto.conf'] = 'pgconf',
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
    augroup END
  ]])
end
