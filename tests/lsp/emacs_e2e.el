;;; emacs_e2e.el --- drives editors/emacs/pgconflint.el in Emacs's batch mode -*- lexical-binding: t; -*-
;; test_emacs.py runs it with PGC_REPO, PGC_MODE (modes or eglot), PGC_FILES
;; (newline-separated paths), PGC_RESULT (a JSON file written at the end), and
;; for eglot PGCONFLINT, PGC_LOG (what the client sends is copied there).
(require 'json)
(defvar pgc-result nil)
(defun pgc-finish ()
  (with-temp-file (getenv "PGC_RESULT") (insert (json-encode pgc-result)))
  (kill-emacs 0))

(if (equal (getenv "PGC_MODE") "modes")
    (progn
      (load (expand-file-name "editors/emacs/pgconflint.el" (getenv "PGC_REPO")))
      (dolist (file (split-string (getenv "PGC_FILES") "\n" t))
        (with-current-buffer (find-file-noselect file)
          (push (cons file (symbol-name major-mode)) pgc-result)))
      (pgc-finish))
  ;; eglot loaded first, the options set after pgconflint.el: the order that lost them.
  (require 'eglot)
  (load (expand-file-name "editors/emacs/pgconflint.el" (getenv "PGC_REPO")))
  (setq pgconflint-command
        (list "sh" "-c" (format "tee %s | exec %s server --docs-dir none"
                                (shell-quote-argument (getenv "PGC_LOG")) (shell-quote-argument (getenv "PGCONFLINT")))))
  (setq pgconflint-initialization-options '(:profile (:ram "1GB" :cpus 2) :run "onType"))
  (let ((buffer (find-file-noselect (car (split-string (getenv "PGC_FILES") "\n" t))))
        (deadline (+ (float-time) 60))
        diagnostics)
    (with-current-buffer buffer
      (apply #'eglot (eglot--guess-contact))
      ;; Batch mode is never idle: start flymake's check (eglot's backend) by hand.
      (while (and (null diagnostics) (< (float-time) deadline))
        (flymake-start)
        (accept-process-output nil 0.2)
        (setq diagnostics (mapcar #'flymake-diagnostic-text (flymake-diagnostics))))
      (setq pgc-result `((mode . ,(symbol-name major-mode)) (diagnostics . ,(vconcat diagnostics))))
      (eglot-shutdown (eglot-current-server))))
  (pgc-finish))
