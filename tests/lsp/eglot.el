;;; eglot.el --- Emacs eglot attaches `schedlint server' and shows its diagnostics  -*- lexical-binding: t -*-
;; SPDX-License-Identifier: Apache-2.0
;; Run by tests/lsp/run eglot: emacs --batch -l tests/lsp/eglot.el, in a workspace with
;; pod.yaml, $SCHEDLINT the server. The recipe of docs/editors.md (eglot-server-programs for yaml-mode,
;; eglot-ensure on yaml-mode-hook); in batch there is no command loop for eglot-ensure to wait
;; for, so the connection it would make is made here. Flymake must then hold the diagnostics,
;; each over the offending text of a line with non-ASCII characters (eglot converts the
;; server's UTF-16 columns to Emacs's characters). Exit 0 when all is well.
(package-initialize)
(require 'eglot)
(require 'yaml-mode)
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               `(yaml-mode . (,(getenv "SCHEDLINT") "server" "--debounce-ms" "20"))))
(add-hook 'yaml-mode-hook #'eglot-ensure)
(find-file "pod.yaml")
(unless (eglot-current-server)
  (apply #'eglot (eglot--guess-contact)))
;; as long as it takes (a loaded machine is slow): meson's timeout ends a test that hangs
(while (< (length (flymake-diagnostics)) 3)
  (accept-process-output nil 0.1))
(defun schedlint-test--text (rule)
  "The buffer text under the diagnostic of RULE, or nil."
  (let ((d (seq-find (lambda (d) (string-match-p (format "\\[%s\\]" rule) (flymake-diagnostic-text d)))
                     (flymake-diagnostics))))
    (and d (buffer-substring-no-properties (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))))
(let ((st (schedlint-test--text "schema-type"))
      (ns (schedlint-test--text "invalid-node-selector"))
      (gpu (schedlint-test--text "gpu-request-without-limit")))
  (princ (format "schema-type: %S\ninvalid-node-selector: %S\ngpu-request-without-limit: %S\n" st ns gpu))
  (kill-emacs (if (and (equal st "true") (equal ns "\"Zürich 🚀\"") (equal gpu "1")) 0 1)))
