;;; pgconflint.el --- pgconflint's language server for PostgreSQL configuration files -*- lexical-binding: t; -*-

;; Major modes for PostgreSQL configuration files (`pgconf-mode' for
;; postgresql.conf and its includes, `pghba-mode' for pg_hba.conf,
;; `pgident-mode' for pg_ident.conf) and the registration of
;; `pgconflint server' for the three with eglot (built into Emacs 29, from
;; ELPA before) and with lsp-mode.  Load it from your init file:
;;
;;   (load "/path/to/pgconflint/editors/emacs/pgconflint.el")
;;
;; then open a postgresql.conf, pg_hba.conf or pg_ident.conf: M-x eglot (or
;; lsp) starts the server; add `eglot-ensure' or `lsp-deferred' to
;; `pgconf-mode-hook', `pghba-mode-hook' and `pgident-mode-hook' to start it
;; always.

;;; Code:

(defgroup pgconflint nil
  "PostgreSQL configuration files checked by pgconflint."
  :group 'languages)

(defcustom pgconflint-command '("pgconflint" "server")
  "The command that runs pgconflint's language server."
  :type '(repeat string))

(defcustom pgconflint-initialization-options '(:run "onType")
  "initializationOptions for the server: :profile, :pg-version, :run, :extra-rules,
:debounce-ms, :live (the table in editors/README.md)."
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

;; pg_hba.conf and pg_ident.conf: records of blank-separated fields, `#'
;; comments, double-quoted words, and (PostgreSQL 16 and later) include,
;; include_if_exists and include_dir lines.  PostgreSQL compares their
;; keywords case-sensitively, and so does the highlighting.

(defconst pgconflint--auth-include-regexp
  "^[ \t]*\\(include\\(?:_if_exists\\|_dir\\)?\\)\\_>"
  "An include directive at the start of a pg_hba.conf or pg_ident.conf line.")

(defvar pghba-mode-font-lock-keywords
  `((,pgconflint--auth-include-regexp 1 font-lock-preprocessor-face)
    ("^[ \t]*\\(local\\|host\\(?:ssl\\|nossl\\|gssenc\\|nogssenc\\)?\\)\\_>" 1 font-lock-keyword-face)
    ("[ \t]\\([A-Za-z_]+\\)=" 1 font-lock-variable-name-face))
  "Highlighting: include directives, connection types, option names.")

(defvar pgident-mode-font-lock-keywords
  `((,pgconflint--auth-include-regexp 1 font-lock-preprocessor-face)
    ("^[ \t]*\\([^ \t\n#\"]+\\)" 1 font-lock-function-name-face))
  "Highlighting: include directives, map names.")

(defvar pgconflint--auth-syntax-table
  (let ((table (make-syntax-table prog-mode-syntax-table)))
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    table)
  "Syntax table of pg_hba.conf and pg_ident.conf: `#' starts a comment.")

;; The comment settings both authentication files share.
(define-derived-mode pgconflint-auth-mode prog-mode "pgauth"
  "Parent mode of `pghba-mode' and `pgident-mode': `#' comments."
  :syntax-table pgconflint--auth-syntax-table
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+[ \t]*"))

;;;###autoload
(define-derived-mode pghba-mode pgconflint-auth-mode "pghba"
  "Major mode for PostgreSQL's client authentication file (pg_hba.conf)."
  (setq-local font-lock-defaults '(pghba-mode-font-lock-keywords)))

;;;###autoload
(define-derived-mode pgident-mode pgconflint-auth-mode "pgident"
  "Major mode for PostgreSQL's user name map file (pg_ident.conf)."
  (setq-local font-lock-defaults '(pgident-mode-font-lock-keywords)))

;;;###autoload
(add-to-list 'auto-mode-alist '("/pg_hba\\.conf\\'" . pghba-mode))
;;;###autoload
(add-to-list 'auto-mode-alist '("/pg_ident\\.conf\\'" . pgident-mode))

;; Any other *.conf is PostgreSQL's by a first-line marker or by the data
;; directory around it (the rules of editors/README.md, which the Neovim and
;; VS Code integrations apply too):
;;   "# pgconflint: file-type=conf|hba|ident" on the first line;
;;   a .conf beside a postgresql.conf (its data or configuration directory);
;;   a .conf in a directory that the postgresql.conf (or pg_hba.conf) of the
;;   directory above names in an include line (conf.d/10-memory.conf with
;;   `include_dir = 'conf.d'').
;; Another program's conf.d (nginx's) has no such postgresql.conf: no match.

(defun pgconflint--includes-p (conf name)
  "Whether an include line of CONF names NAME as a component of its path."
  (with-temp-buffer
    (insert-file-contents conf nil 0 1048576)
    (goto-char (point-min))
    (catch 'found
      (while (re-search-forward
              "^[ \t]*include[A-Za-z0-9_]*\\(?:[ \t]*=[ \t]*\\|[ \t]+\\)'?\\([^'#\n]*\\)" nil t)
        (when (member name (split-string (string-trim (match-string 1)) "/" t))
          (throw 'found t)))
      nil)))

(defun pgconflint-file-mode (file)
  "The major mode of FILE (a path) when it is PostgreSQL configuration, else nil.
Reads the first line from the current buffer when it visits FILE."
  (when (and file (string-suffix-p ".conf" file))
    (let* ((name (file-name-nondirectory file))
           (first (save-excursion
                    (save-restriction
                      (widen)
                      (goto-char (point-min))
                      (and (looking-at "[ \t]*#[ \t]*pgconflint:[ \t]*file-type[ \t]*=[ \t]*\\([a-z]+\\)")
                           (match-string 1)))))
           (dir (directory-file-name (file-name-directory (expand-file-name file))))
           (parent (file-name-directory dir))
           (sub (file-name-nondirectory dir)))
      (cond
       ((string-match-p "\\`postgresql\\(\\.auto\\)?\\.conf\\'" name) 'pgconf-mode)
       ((equal name "pg_hba.conf") 'pghba-mode)
       ((equal name "pg_ident.conf") 'pgident-mode)
       (first (cdr (assoc first '(("conf" . pgconf-mode) ("hba" . pghba-mode) ("ident" . pgident-mode)))))
       ((file-regular-p (expand-file-name "postgresql.conf" dir)) 'pgconf-mode)
       ((and (file-regular-p (expand-file-name "postgresql.conf" parent))
             (pgconflint--includes-p (expand-file-name "postgresql.conf" parent) sub))
        'pgconf-mode)
       ((and (file-regular-p (expand-file-name "pg_hba.conf" parent))
             (pgconflint--includes-p (expand-file-name "pg_hba.conf" parent) sub))
        'pghba-mode)))))

(defun pgconflint--magic-p ()
  "Whether the buffer visits a *.conf file that `pgconflint-file-mode' claims."
  (and buffer-file-name (pgconflint-file-mode buffer-file-name) t))

(defun pgconflint--set-mode ()
  "Turn on the mode `pgconflint-file-mode' gives the visited file."
  (funcall (pgconflint-file-mode buffer-file-name)))

;; magic-mode-alist is consulted before auto-mode-alist: a claimed file is
;; PostgreSQL's even where another entry (conf-mode) would take *.conf.
;;;###autoload
(add-to-list 'magic-mode-alist '(pgconflint--magic-p . pgconflint--set-mode))

;; eglot: one server for the three modes (it tells the files apart by their
;; names).  eglot sends the mode's name less its -mode suffix as the
;; language id.  The contact is a function, read when a server starts: the
;; options set after this file is loaded apply, whether eglot was loaded
;; before it or after.
(defun pgconflint-eglot-contact (&optional _interactive)
  "The command and initializationOptions eglot starts the server with."
  `(,@pgconflint-command :initializationOptions ,pgconflint-initialization-options))

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '((pgconf-mode pghba-mode pgident-mode) . pgconflint-eglot-contact)))

;; lsp-mode
(with-eval-after-load 'lsp-mode
  (add-to-list 'lsp-language-id-configuration '(pgconf-mode . "pgconf"))
  (add-to-list 'lsp-language-id-configuration '(pghba-mode . "pghba"))
  (add-to-list 'lsp-language-id-configuration '(pgident-mode . "pgident"))
  (lsp-register-client
   (make-lsp-client :new-connection (lsp-stdio-connection (lambda () pgconflint-command))
                    :activation-fn (lsp-activate-on "pgconf" "pghba" "pgident")
                    :initialization-options (lambda () pgconflint-initialization-options)
                    :server-id 'pgconflint)))

(provide 'pgconflint)
;;; pgconflint.el ends here
