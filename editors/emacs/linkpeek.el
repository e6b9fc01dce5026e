;;; linkpeek.el --- Link previews from the linkpeek daemon  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: hypermedia, convenience
;; URL: https://github.com/linkpeek/linkpeek

;;; Commentary:

;; See what is behind a URL without leaving Emacs.  linkpeek.el talks to
;; `linkpeek serve' over Emacs's own jsonrpc.el and nothing else:
;;
;;   M-x linkpeek-preview-at-point   the card in a *linkpeek* buffer, filling
;;                                   in as the page loads
;;   M-x linkpeek-save-at-point      add the URL to linkpeek's saved links
;;   M-x linkpeek-mode               the card in the echo area (eldoc) when
;;                                   point rests on a URL
;;
;; Customise with M-x customize-group RET linkpeek.  One daemon serves the
;; whole Emacs session; a daemon that dies is started again with backoff.
;;
;; eglot users can instead run linkpeek as a language server (hover shows
;; the card the daemon renders):
;;
;;   (with-eval-after-load 'eglot
;;     (add-to-list 'eglot-server-programs
;;                  '((markdown-mode text-mode org-mode) . ("linkpeek" "serve"))))

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'eldoc)
(require 'linkpeek-protocol)
(require 'linkpeek-card)

(defgroup linkpeek nil
  "Link previews from the linkpeek daemon."
  :group 'hypermedia
  :prefix "linkpeek-")

(defcustom linkpeek-binary "linkpeek"
  "The linkpeek binary: a name on `exec-path' or a file name."
  :type 'string)

(defcustom linkpeek-allow-private-network nil
  "Non-nil lets the daemon fetch loopback and private addresses."
  :type 'boolean)

(defcustom linkpeek-timeout nil
  "Seconds per fetch, or nil for the daemon's default (30)."
  :type '(choice (const :tag "Daemon default" nil) number))

(defcustom linkpeek-hover-timeout 1.5
  "Seconds the echo-area card waits before it shows what is known."
  :type 'number)

(defcustom linkpeek-auto-preview t
  "Non-nil: `linkpeek-mode' shows the card in the echo area.
The card shows when point rests on a URL."
  :type 'boolean)

(defcustom linkpeek-restart-delays '(0.5 1 2 4 8)
  "Seconds to wait before each restart of a daemon that died; then give up."
  :type '(repeat number))

(defvar linkpeek-preview-update-functions nil
  "Abnormal hook run with (PHASE LINES) each time the *linkpeek* card changes.
PHASE is one of `open', `progress', `partial', `done', `error'.")

(defvar linkpeek--connection nil "The jsonrpc connection to the daemon.")
(defvar linkpeek--streams (make-hash-table :test #'equal) "Token -> function of a $/progress value.")
(defvar linkpeek--counter 0 "For tokens and provider ids.")
(defvar linkpeek--stopping nil "Non-nil while `linkpeek-shutdown' runs.")
(defvar linkpeek--deaths 0 "Quick deaths in a row, for the backoff.")
(defvar linkpeek--started-at 0 "When the daemon was started (float-time).")

(defun linkpeek--check-seconds (name key value)
  "Signal a `user-error' naming NAME unless VALUE is nil or in the range KEY."
  (let ((range (alist-get key linkpeek-protocol-ranges)))
    (unless (or (null value) (and (numberp value) (>= value (car range)) (<= value (cadr range))))
      (user-error "linkpeek: %s must be a number of seconds from %s to %s" name (car range) (cadr range)))))

(defun linkpeek--next-id (kind)
  "A fresh token or provider id of KIND."
  (format "linkpeek.el-%s-%d" kind (cl-incf linkpeek--counter)))

(defun linkpeek--notification (_conn method params)
  "Route $/progress PARAMS (METHOD) to the preview that asked for its token."
  (when (eq method linkpeek-protocol-progress)
    (let ((route (gethash (plist-get params :token) linkpeek--streams)))
      (when route (funcall route (plist-get params :value))))))

(defvar linkpeek--generation nil
  "A fresh cons for each daemon started; names the one that counts.
A daemon can die while `make-instance' is still creating its connection (a
binary that fails at once), before `linkpeek--connection' is set.")

(defun linkpeek--on-shutdown (generation)
  "The daemon of GENERATION died: tell the previews, then restart with backoff."
  (when (eq generation linkpeek--generation)
    (setq linkpeek--connection nil linkpeek--generation nil)
    (maphash (lambda (_token route) (funcall route nil)) linkpeek--streams)
    (clrhash linkpeek--streams)
    (unless linkpeek--stopping
      (when (> (- (float-time) linkpeek--started-at) 60) (setq linkpeek--deaths 0))
      (let ((delay (nth linkpeek--deaths linkpeek-restart-delays)))
        (cl-incf linkpeek--deaths)
        (if (null delay)
            (message "linkpeek: the daemon keeps exiting; not restarting it (see *linkpeek stderr*)")
          (run-at-time delay nil
                       (lambda ()
                         (unless (or linkpeek--stopping
                                     (and linkpeek--connection (jsonrpc-running-p linkpeek--connection)))
                           (ignore-errors (linkpeek--connection))))))))))

(defun linkpeek--start ()
  "Start and initialise the daemon; return the connection."
  (linkpeek--check-seconds "linkpeek-timeout" 'timeout linkpeek-timeout)
  (linkpeek--check-seconds "linkpeek-hover-timeout" 'hover-timeout linkpeek-hover-timeout)
  (let* ((command (append (list linkpeek-binary "serve")
                          (and linkpeek-allow-private-network '("--allow-private-network"))))
         (generation (progn (setq linkpeek--started-at (float-time))
                            (setq linkpeek--generation (list 'linkpeek))))
         (conn (make-instance
                'jsonrpc-process-connection
                :name "linkpeek"
                :events-buffer-scrollback-size 0
                :notification-dispatcher #'linkpeek--notification
                :request-dispatcher #'ignore
                :on-shutdown (lambda (_conn) (linkpeek--on-shutdown generation))
                :process (lambda ()
                           (make-process :name "linkpeek" :command command
                                         :connection-type 'pipe :coding 'utf-8-emacs-unix
                                         :noquery t
                                         :stderr (get-buffer-create "*linkpeek stderr*"))))))
    (unless (eq linkpeek--generation generation)
      (error "linkpeek: the daemon exited at once (see *linkpeek stderr*)"))
    (setq linkpeek--connection conn)
    (condition-case err
        (jsonrpc-request conn (linkpeek-protocol-method 'initialize)
                         (list :processId (emacs-pid)
                               :clientInfo '(:name "linkpeek.el")
                               :initializationOptions
                               (linkpeek-protocol-init-options linkpeek-allow-private-network
                                                               linkpeek-timeout linkpeek-hover-timeout))
                         :timeout 10)
      (error
       ;; A process that exits before jsonrpc.el sets its sentinel never
       ;; reports its death: count it here (a no-op if it was reported).
       (unless (jsonrpc-running-p conn) (linkpeek--on-shutdown generation))
       (signal (car err) (cdr err))))
    (jsonrpc-notify conn (linkpeek-protocol-method 'initialized) nil)
    conn))

(defun linkpeek--connection ()
  "The running connection, started on first use."
  (if (and linkpeek--connection (jsonrpc-running-p linkpeek--connection))
      linkpeek--connection
    (setq linkpeek--stopping nil)
    (linkpeek--start)))

(defun linkpeek-shutdown ()
  "Stop the daemon: `shutdown', `exit', then `jsonrpc-shutdown'."
  (interactive)
  (let ((conn linkpeek--connection))
    (when conn
      (setq linkpeek--stopping t)
      (when (jsonrpc-running-p conn)
        (ignore-errors (jsonrpc-request conn (linkpeek-protocol-method 'shutdown) nil :timeout 2))
        (ignore-errors (jsonrpc-notify conn (linkpeek-protocol-method 'exit) nil))
        (with-timeout (2 nil)
          (while (jsonrpc-running-p conn) (accept-process-output nil 0.05))))
      (jsonrpc-shutdown conn)
      (setq linkpeek--connection nil
            linkpeek--generation nil
            linkpeek--deaths 0))))

(defun linkpeek-url-at-point ()
  "The URL at point, or nil."
  (linkpeek-card-url-at (buffer-substring-no-properties (line-beginning-position) (line-end-position))
                        (- (point) (line-beginning-position))))

(defun linkpeek--message-for (err)
  "A message for the JSON-RPC error ERR."
  (if (linkpeek-protocol-error-p err 'method-not-found)
      "linkpeek: this linkpeek daemon has no saved links (`save' needs a newer linkpeek)"
    (concat "linkpeek: " (or (linkpeek-card-clean (plist-get err :message)) "the request failed"))))

(defun linkpeek-save-at-point (&optional url tags)
  "Save URL (default: the one at point) with TAGS in linkpeek's saved links."
  (interactive)
  (let ((url (or url (linkpeek-url-at-point) (user-error "linkpeek: no URL at point"))))
    (jsonrpc-async-request
     (linkpeek--connection) (linkpeek-protocol-method 'save)
     (append (list :url url) (and tags (list :tags (vconcat tags))))
     :success-fn (lambda (result)
                   (message "linkpeek: saved %s"
                            (or (linkpeek-card-clean
                                 (plist-get (linkpeek-protocol-entry-metadata result) :title))
                                url)))
     :error-fn (lambda (err) (message "%s" (linkpeek--message-for err)))
     :timeout (or linkpeek-timeout 30))))

(provide 'linkpeek)
(require 'linkpeek-preview)
;;; linkpeek.el ends here
