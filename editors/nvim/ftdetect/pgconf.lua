-- pgconflint: detect PostgreSQL configuration files as filetype "pgconf".
--   postgresql.conf, postgresql.auto.conf (anywhere), and *.conf files in a
--   conf.d directory somewhere below a directory named "postgresql"
--   (e.g. /etc/postgresql/17/main/conf.d/tuning.conf).
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
