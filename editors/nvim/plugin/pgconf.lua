-- pgconflint: buffer settings for postgresql.conf, pg_hba.conf and
-- pg_ident.conf, and tree-sitter highlighting of postgresql.conf when the
-- "pgconf" parser is installed (see editors/nvim/README.md).
if vim.g.loaded_pgconflint_pgconf then
  return
end
vim.g.loaded_pgconflint_pgconf = true

vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'pgconf', 'pghba', 'pgident' },
  group = vim.api.nvim_create_augroup('pgconflint_pgconf', { clear = true }),
  callback = function(args)
    vim.bo[args.buf].commentstring = '# %s'
    vim.bo[args.buf].comments = ':#'
    -- Start tree-sitter highlighting if a parser named "pgconf" can be loaded
    -- (installed by nvim-treesitter or placed in a parser/ directory on
    -- 'runtimepath'); otherwise keep the default (no) highlighting. The
    -- grammar describes postgresql.conf only, so pg_hba.conf and
    -- pg_ident.conf are not highlighted.
    if args.match == 'pgconf' then
      pcall(vim.treesitter.start, args.buf, 'pgconf')
    end
  end,
})
