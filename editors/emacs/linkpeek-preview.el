;;; linkpeek-preview.el --- The *linkpeek* card and the eldoc card  -*- lexical-binding: t; -*-

;;; Commentary:

;; `linkpeek-preview-at-point' shows a card in the *linkpeek* buffer that
;; fills in as the daemon streams: the host and "loading…" at once, the stage
;; and bytes, the title and summary as soon as the page head is parsed, then
;; the whole card.  `linkpeek-eldoc-function' answers within
;; `linkpeek-hover-timeout' with what is known.  Loaded by linkpeek.el.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'jsonrpc)
(require 'eldoc)
(require 'linkpeek-protocol)
(require 'linkpeek-card)

(defvar linkpeek--streams)
(defvar linkpeek--connection)
(defvar linkpeek-timeout)
(defvar linkpeek-hover-timeout)
(defvar linkpeek-auto-preview)
(defvar linkpeek-hover-images)
(defvar linkpeek-preview-update-functions)
(declare-function linkpeek--connection "linkpeek")
(declare-function linkpeek--command-connection "linkpeek")
(declare-function linkpeek--quiet-connection "linkpeek")
(declare-function linkpeek-error-text "linkpeek")
(declare-function linkpeek--next-id "linkpeek")
(declare-function linkpeek-url-at-point "linkpeek")

(defvar linkpeek--preview nil
  "The preview in *linkpeek*: a plist (:url :provider :tokens :meta :done).
:error-code is the code of the fetch's error answer, once there is one.")

(defun linkpeek--render (preview phase meta status)
  "Show PREVIEW's card at PHASE with META (kept if nil) and STATUS."
  (when (and (eq preview linkpeek--preview) (not (plist-get preview :done)))
    (when meta (plist-put preview :meta meta))
    (let ((lines (linkpeek-card-lines (plist-get preview :url) (plist-get preview :meta) status
                                      linkpeek-hover-images)))
      (with-current-buffer (get-buffer-create "*linkpeek*")
        (let ((inhibit-read-only t))
          (erase-buffer)
          (insert (string-join lines "\n") "\n")
          (goto-char (point-min)))
        (unless (derived-mode-p 'special-mode) (special-mode))
        (visual-line-mode 1))               ; long lines wrap at word boundaries
      (when (memq phase '(done error))
        (plist-put preview :done t)
        (linkpeek--release preview))
      (run-hook-with-args 'linkpeek-preview-update-functions phase lines))))

(defun linkpeek--release (preview)
  "Stop routing PREVIEW's tokens."
  (dolist (token (plist-get preview :tokens)) (remhash token linkpeek--streams)))

(defun linkpeek--stage-label (stage)
  "The words for the progress STAGE (\"waiting for the server\").
A stage of `linkpeek-protocol-stages' by what it means, any other by its name."
  (or (cdr (assoc stage linkpeek-protocol-stages)) (linkpeek-card-clean stage)))

(defun linkpeek--progress-status (value)
  "The status line for a work-done progress VALUE."
  (let ((stage (or (linkpeek--stage-label (plist-get value :stage)) "loading"))
        (bytes (plist-get value :bytes)))
    (if (and (numberp bytes) (> bytes 0))
        (format "loading… %s, %d bytes" stage bytes)
      (concat "loading… " stage))))

(defun linkpeek-cancel-preview ()
  "Cancel the preview still loading in *linkpeek*, if any.
The fetch is cancelled by its progress token
\=(`window/workDoneProgress/cancel'); the daemon answers it -32800."
  (interactive)
  (let ((p linkpeek--preview))
    (setq linkpeek--preview nil)
    (when (and p (not (plist-get p :done)))
      (plist-put p :done t)
      (linkpeek--release p)
      (when (and linkpeek--connection (jsonrpc-running-p linkpeek--connection))
        (jsonrpc-notify linkpeek--connection (linkpeek-protocol-method 'cancel-work)
                        (list :token (car (plist-get p :tokens))))))))

(defun linkpeek-preview-at-point (&optional url)
  "Show the card of URL (default: the one at point) in the *linkpeek* buffer."
  (interactive)
  (let* ((url (or url (linkpeek-url-at-point) (user-error "linkpeek: no URL at point")))
         (conn (progn (linkpeek-cancel-preview) (linkpeek--command-connection)))
         (work (linkpeek--next-id "work"))
         (partial (linkpeek--next-id "partial"))
         (preview (list :url url :provider (linkpeek--next-id "preview") :tokens (list work partial)
                        :meta nil :done nil)))
    (setq linkpeek--preview preview)
    (linkpeek--render preview 'open nil "loading…")
    (puthash work (lambda (v)
                    (cond ((null v) (linkpeek--render preview 'error nil "linkpeek: the daemon exited"))
                          ((and (linkpeek-protocol-work-done-p v) (not (equal (plist-get v :kind) "end")))
                           (linkpeek--render preview 'progress nil (linkpeek--progress-status v)))))
             linkpeek--streams)
    (puthash partial (lambda (v)
                       (when (and v (not (linkpeek-protocol-work-done-p v)))
                         (linkpeek--render preview 'partial v "loading…")))
             linkpeek--streams)
    (jsonrpc-async-request
     conn (linkpeek-protocol-method 'fetch)
     (linkpeek-protocol-fetch-params url (plist-get preview :provider) work partial linkpeek-timeout)
     :success-fn (lambda (meta) (linkpeek--render preview 'done meta nil))
     :error-fn (lambda (err)
                 (plist-put preview :error-code (plist-get err :code))
                 (linkpeek--render preview 'error nil (linkpeek-error-text err)))
     :timeout (+ (or linkpeek-timeout 30) 5)
     :timeout-fn (lambda () (linkpeek--render preview 'error nil "linkpeek: no answer from the daemon")))
    (display-buffer "*linkpeek*")
    preview))

(defvar linkpeek-eldoc-outcome-functions nil
  "Abnormal hook run with (OUTCOME URL) for each eldoc card.
OUTCOME is `shown', `dropped' (point left before the answer) or `refresh'
\(the fetch finished after a loading… card, which is replaced).")

(defun linkpeek--still-at-p (buffer pos)
  "Non-nil if the selected window still shows BUFFER with point at POS."
  (and (buffer-live-p buffer)
       (eq (window-buffer (selected-window)) buffer)
       (= (window-point (selected-window)) pos)))

(defun linkpeek-eldoc-function (callback &rest _)
  "Eldoc: the card of the link at point, via CALLBACK.
It answers within `linkpeek-hover-timeout' with what is known, and only
while point is where it was asked; when the fetch finishes after a
loading… card and point has not moved, the whole card replaces it (through
`eldoc-display-functions').  Without a binary it says so once and asks no
more until one appears."
  (let ((url (linkpeek-url-at-point)))
    (when url
      (let ((conn (linkpeek--quiet-connection)))
        (when conn
          (linkpeek--eldoc-fetch conn url callback)
          t)))))

(defun linkpeek--eldoc-fetch (conn url callback)
  "Fetch URL on CONN for eldoc's CALLBACK, at the current buffer and point."
  (let ((token (linkpeek--next-id "eldoc")) (buffer (current-buffer)) (pos (point))
        (partial nil) (answered nil) (budget nil))
    (cl-labels ((answer (meta status)
                  (unless answered
                    (setq answered t)
                    (when (timerp budget) (cancel-timer budget))
                    (if (not (linkpeek--still-at-p buffer pos))
                        (run-hook-with-args 'linkpeek-eldoc-outcome-functions 'dropped url)
                      (run-hook-with-args 'linkpeek-eldoc-outcome-functions 'shown url)
                      (funcall callback (linkpeek-card-echo url meta status)))))
                (finish (meta status)
                  (remhash token linkpeek--streams)
                  (if (not answered)
                      (answer meta status)
                    ;; The card said loading…: show the whole card if point
                    ;; stayed, as eldoc shows a card (the callback of this
                    ;; request is spent).
                    (when (linkpeek--still-at-p buffer pos)
                      (run-hook-with-args 'linkpeek-eldoc-outcome-functions 'refresh url)
                      (with-current-buffer buffer
                        (run-hook-with-args 'eldoc-display-functions
                                            (list (list (linkpeek-card-echo url meta status)))
                                            nil))))))
      (puthash token (lambda (v) (when (and v (not (linkpeek-protocol-work-done-p v))) (setq partial v)))
               linkpeek--streams)
      ;; The budget is a timer of its own: jsonrpc's :timeout would forget the
      ;; request, and the answer that comes later is the one worth showing.
      (setq budget (run-at-time linkpeek-hover-timeout nil (lambda () (answer partial "loading…"))))
      (jsonrpc-async-request
       conn (linkpeek-protocol-method 'fetch)
       (linkpeek-protocol-fetch-params url nil nil token linkpeek-timeout t)
       :success-fn (lambda (meta) (finish meta nil))
       :error-fn (lambda (err) (finish nil (string-remove-prefix "linkpeek: " (linkpeek-error-text err))))
       :timeout (+ (or linkpeek-timeout 30) 5)
       :timeout-fn (lambda () (finish partial "no answer from the daemon"))))))

;;;###autoload
(define-minor-mode linkpeek-mode
  "Show the card of the URL at point in the echo area (eldoc)."
  :lighter " lp"
  (if (and linkpeek-mode linkpeek-auto-preview)
      (progn (add-hook 'eldoc-documentation-functions #'linkpeek-eldoc-function nil t)
             (eldoc-mode 1))
    (remove-hook 'eldoc-documentation-functions #'linkpeek-eldoc-function t)))

(provide 'linkpeek-preview)
;;; linkpeek-preview.el ends here
