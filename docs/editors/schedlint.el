;;; schedlint.el --- fix YAML buffers with `schedlint fmt' when they are saved  -*- lexical-binding: t -*-
;; SPDX-License-Identifier: Apache-2.0

;;; Commentary:
;; For Emacs 26.1 and later (`replace-buffer-contents'), no packages needed; tested
;; headless in Emacs 28 by tests/editors/run.  The buffer, not the file on disk, goes to
;; `schedlint fmt --stdin-filename PATH -' on stdin; the buffer is replaced, with
;; `replace-buffer-contents' (which keeps point, markers and undo to the changed parts), only
;; when schedlint exits 0 and printed something.  A schedlint that is missing, fails (a YAML
;; syntax error, a bad config: exit 2), is killed or does not answer within
;; `schedlint-timeout' seconds leaves the buffer as it was, with a message, and the save goes
;; ahead.
;;
;; Install:
;;   (load "/path/to/schedlint.el")
;;   (add-hook 'yaml-mode-hook #'schedlint-on-save-mode)     ; yaml-ts-mode-hook in Emacs 29+
;; M-x schedlint-format-buffer fixes the buffer by hand.

;;; Code:

(defgroup schedlint nil
  "Fix YAML buffers with schedlint."
  :group 'tools)

(defcustom schedlint-program "schedlint"
  "The schedlint program, looked up on `exec-path'."
  :type 'string)

(defcustom schedlint-timeout 5
  "Seconds to wait for schedlint before leaving the buffer as it is.
Enforced with coreutils' timeout when it is on `exec-path'."
  :type 'integer)

(defun schedlint--first-line (file)
  "The first line of FILE, or nil when it is empty."
  (with-temp-buffer
    (insert-file-contents file)
    (goto-char (point-min))
    (and (> (buffer-size) 0) (buffer-substring (point-min) (line-end-position)))))

(defun schedlint-format-buffer ()
  "Replace the buffer by what `schedlint fmt' makes of it.
Only when schedlint exits 0 with output; otherwise the buffer
stays as it is and a message says why."
  (interactive)
  (let ((exe (executable-find schedlint-program)))
    (cond
     ((not exe)
      (message "schedlint fmt: %s is not on exec-path; the buffer is left as it is"
               schedlint-program))
     ((= (buffer-size) 0))
     (t
      (let ((out (generate-new-buffer " *schedlint fmt*"))
            (timeout (executable-find "timeout"))
            (err (make-temp-file "schedlint-err"))
            ;; The text as Emacs holds it: UTF-8 with LF newlines, no BOM (the file's coding
            ;; system, CRLF and BOM included, applies when the buffer is saved).
            (coding-system-for-write 'utf-8-unix)
            (coding-system-for-read 'utf-8-unix))
        (unwind-protect
            (let ((status
                   (save-restriction
                     (widen)
                     (condition-case e
                         (apply #'call-process-region (point-min) (point-max)
                                (or timeout exe) nil (list out err) nil
                                (append (and timeout
                                             (list (number-to-string schedlint-timeout) exe))
                                        '("fmt")
                                        (and buffer-file-name
                                             (list "--stdin-filename" buffer-file-name))
                                        '("-")))
                       (error (error-message-string e))))))
              (cond
               ((and timeout (eq status 124))
                (message "schedlint fmt: no answer in %d s; the buffer is left as it is"
                         schedlint-timeout))
               ((not (eq status 0))
                (let ((why (schedlint--first-line err)))
                  (message "schedlint fmt: %s%s; the buffer is left as it is"
                           (if (numberp status) (format "exit %d" status) status)
                           (if why (concat ": " why) ""))))
               ((= (buffer-size out) 0)
                (message "schedlint fmt: no output; the buffer is left as it is"))
               (t
                (save-restriction
                  (widen)
                  (replace-buffer-contents out)))))
          (kill-buffer out)
          (delete-file err)))))))

;;;###autoload
(define-minor-mode schedlint-on-save-mode
  "Run `schedlint-format-buffer' before each save of this buffer."
  :lighter " schedlint"
  (if schedlint-on-save-mode
      (add-hook 'before-save-hook #'schedlint-format-buffer nil t)
    (remove-hook 'before-save-hook #'schedlint-format-buffer t)))

(provide 'schedlint)
;;; schedlint.el ends here
