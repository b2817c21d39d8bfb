;;; pgconflint.el --- pgconflint's language server for postgresql.conf -*- lexical-binding: t; -*-

;; A major mode for PostgreSQL configuration files and the registration of
;; `pgconflint server' with eglot (built into Emacs 29, from ELPA before)
;; and with lsp-mode.  Load it from your init file:
;;
;;   (load "/path/to/pgconflint/editors/emacs/pgconflint.el")
;;
;; then open a postgresql.conf: M-x eglot (or lsp) starts the server; add
;; `eglot-ensure' or `lsp-deferred' to `pgconf-mode-hook' to start it always.

;;; Code:

(defgroup pgconflint nil
  "PostgreSQL configuration files checked by pgconflint."
  :group 'languages)

(defcustom pgconflint-command '("pgconflint" "server")
  "The command that runs pgconflint's language server."
  :type '(repeat string))

(defcustom pgconflint-initialization-options '(:run "onType")
  "initializationOptions for the server: :profile, :pg-version, :run, :extra-rules."
  :type 'plist)

(defvar pgconf-mode-font-lock-keywords
  '(("^[ \t]*\\([iI][nN][cC][lL][uU][dD][eE]\\(_[iI][fF]_[eE][xX][iI][sS][tT][sS]\\|_[dD][iI][rR]\\)?\\)\\_>"
     1 font-lock-keyword-face)
    ("^[ \t]*\\([A-Za-z_][A-Za-z0-9_]*\\(\\.[A-Za-z_][A-Za-z0-9_]*\\)?\\)" 1 font-lock-variable-name-face)
    ("=[ \t]*\\([-+]?[0-9.][0-9.a-zA-Z]*\\)" 1 font-lock-constant-face))
  "Highlighting: include directives, parameter names, numbers.")

;;;###autoload
(define-derived-mode pgconf-mode prog-mode "pgconf"
  "Major mode for PostgreSQL configuration files (postgresql.conf)."
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+[ \t]*")
  (modify-syntax-entry ?# "<" pgconf-mode-syntax-table)
  (modify-syntax-entry ?\n ">" pgconf-mode-syntax-table)
  (modify-syntax-entry ?' "\"" pgconf-mode-syntax-table)
  (modify-syntax-entry ?_ "_" pgconf-mode-syntax-table)
  (setq-local font-lock-defaults '(pgconf-mode-font-lock-keywords)))

;;;###autoload
(add-to-list 'auto-mode-alist '("/postgresql\\(\\.auto\\)?\\.conf\\'" . pgconf-mode))
;;;###autoload
(add-to-list 'auto-mode-alist '("/postgresql/.*/conf\\.d/[^/]*\\.conf\\'" . pgconf-mode))

;; eglot
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               `(pgconf-mode . (,@pgconflint-command
                                :initializationOptions ,pgconflint-initialization-options))))

;; lsp-mode
(with-eval-after-load 'lsp-mode
  (add-to-list 'lsp-language-id-configuration '(pgconf-mode . "pgconf"))
  (lsp-register-client
   (make-lsp-client :new-connection (lsp-stdio-connection (lambda () pgconflint-command))
                    :activation-fn (lsp-activate-on "pgconf")
                    :initialization-options (lambda () pgconflint-initialization-options)
                    :server-id 'pgconflint)))

(provide 'pgconflint)
;;; pgconflint.el ends here
