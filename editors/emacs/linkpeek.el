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
;;   M-x linkpeek-saved              choose a saved link and open it
;;   M-x linkpeek-mode               the card in the echo area (eldoc) when
;;                                   point rests on a URL (or the words of
;;                                   a Markdown [text](url))
;;   M-x linkpeek-doctor             the binary used, its version, and
;;                                   whether the daemon answers
;;
;; Customise with M-x customize-group RET linkpeek.  The binary is looked
;; for on `exec-path', then where the releases install it (see
;; `linkpeek-binary'); without one, linkpeek.el says how to install it, once.
;; One daemon serves the whole Emacs session; a daemon that dies is started
;; again with backoff.
;;
;; eglot users can instead run linkpeek as a language server (hover shows
;; the card the daemon renders):
;;
;;   (with-eval-after-load 'eglot
;;     (add-to-list 'eglot-server-programs
;;                  '((markdown-mode text-mode org-mode) . ("linkpeek" "serve"))))

;;; Code:

(require 'cl-lib)
(require 'seq)
(require 'subr-x)
(require 'jsonrpc)
(require 'eldoc)
(require 'linkpeek-protocol)
(require 'linkpeek-card)

(defgroup linkpeek nil
  "Link previews from the linkpeek daemon."
  :group 'hypermedia
  :prefix "linkpeek-")

(defcustom linkpeek-binary nil
  "The linkpeek binary: a name on `exec-path' or a file name.
nil looks for it on `exec-path', then in ~/.local/bin, /usr/local/bin,
/opt/linkpeek/bin, /usr/bin and the bin folder of the prefix this package
was installed under (<prefix>/share/linkpeek/editors/emacs)."
  :type '(choice (const :tag "Look for it" nil) string))

(defcustom linkpeek-hover-images nil
  "Non-nil: the card has the page's image line (the daemon's hoverImages).
The cards linkpeek.el shows are text, so the image is its URL, shown once
linkpeek has fetched the image (as the daemon's cards do)."
  :type 'boolean)

(defcustom linkpeek-allow-private-network nil
  "Non-nil lets the daemon fetch loopback and private addresses."
  :type 'boolean)

(defcustom linkpeek-accept-language nil
  "The Accept-Language previews are asked in (the daemon's acceptLanguage).
nil: Emacs's language (`system-messages-locale', else LC_ALL, LC_MESSAGES,
LANG as Emacs sees them), \"de_DE.UTF-8\" sent as \"de-DE,de;q=0.9\"; with
C or POSIX the daemon uses its own locale.  A string is sent as it is;
\"\" sends none."
  :type '(choice (const :tag "Emacs's language" nil)
                 (const :tag "None" "")
                 (string :tag "Accept-Language")))

(defcustom linkpeek-hover-fetch nil
  "Whether the echo-area card may fetch (the daemon's hover.fetch).
A card tells the linked site that someone looked at the link.  `always',
`allowList' (only hosts `linkpeek-hover-allow' names) or `cacheOnly' (only
what is cached; `linkpeek-preview-at-point' still fetches).  nil: the daemon's
configuration file (`[hover]'), else `always'."
  :type '(choice (const :tag "The daemon's" nil) (const "always") (const "allowList") (const "cacheOnly")))

(defcustom linkpeek-hover-allow nil
  "Host patterns the card may fetch with `linkpeek-hover-fetch' `allowList'.
As \"example.com\" or \"*.example.com\"; nil: the daemon's."
  :type '(repeat string))

(defcustom linkpeek-hover-deny nil
  "Host patterns the card never fetches; nil: the daemon's."
  :type '(repeat string))

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
(defvar linkpeek--process nil "The daemon's process (for `linkpeek-doctor').")
(defvar linkpeek--streams (make-hash-table :test #'equal) "Token -> function of a $/progress value.")
(defvar linkpeek--counter 0 "For tokens and provider ids.")
(defvar linkpeek--stopping nil "Non-nil while `linkpeek-shutdown' runs.")
(defvar linkpeek--deaths 0 "Quick deaths in a row, for the backoff.")
(defvar linkpeek--started-at 0 "When the daemon was started (float-time).")

(defconst linkpeek-install-message
  "linkpeek is not installed: install the .deb or tarball from the releases, or `make install PREFIX=~/.local' from the source (see editors/README.md)"
  "The sentence shown when there is no linkpeek binary.")

(defconst linkpeek--package-directory
  (file-name-directory (or load-file-name buffer-file-name default-directory))
  "Where linkpeek.el was loaded from.")

(defun linkpeek--beside-package ()
  "The linkpeek binary of the prefix this package was installed under.
<prefix>/bin/linkpeek when this package is in
<prefix>/share/linkpeek/editors/emacs, else nil."
  (let ((dir (directory-file-name (expand-file-name linkpeek--package-directory))))
    (when (string-match "\\`\\(.*\\)/share/linkpeek/editors/emacs\\'" dir)
      (concat (match-string 1 dir) "/bin/linkpeek"))))

(defun linkpeek--places ()
  "The files tried after `exec-path', in order."
  (delq nil (list (expand-file-name "~/.local/bin/linkpeek")
                  "/usr/local/bin/linkpeek"
                  "/opt/linkpeek/bin/linkpeek"
                  "/usr/bin/linkpeek"
                  (linkpeek--beside-package))))

(defun linkpeek--executable-p (file)
  "Non-nil if FILE is an executable file (not a directory)."
  (and file (file-executable-p file) (not (file-directory-p file))))

(defun linkpeek-find-binary ()
  "The linkpeek binary to run, or nil.
`linkpeek-binary' when set, else the first of `exec-path' and the places
the releases install it."
  ;; "linkpeek" (the old default, still in many configs) looks everywhere too.
  (if (and linkpeek-binary (not (member linkpeek-binary '("" "linkpeek"))))
      (let ((file (if (string-match-p "/" linkpeek-binary)
                      (expand-file-name linkpeek-binary)
                    (executable-find linkpeek-binary))))
        (and (linkpeek--executable-p file) file))
    (or (executable-find "linkpeek")
        (seq-find #'linkpeek--executable-p (linkpeek--places)))))

(defun linkpeek--missing-message ()
  "Why there is no binary, in one sentence."
  (if (and linkpeek-binary (not (member linkpeek-binary '("" "linkpeek"))))
      (format "linkpeek: `linkpeek-binary' is %S, which is not an executable file (fix or unset it: unset, linkpeek is looked for on `exec-path' and where the releases install it)"
              linkpeek-binary)
    linkpeek-install-message))

(define-error 'linkpeek-missing "linkpeek is not installed")

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
  (let* ((binary (or (linkpeek-find-binary)
                     (signal 'linkpeek-missing (list (linkpeek--missing-message)))))
         (command (append (list binary "serve")
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
                           (setq linkpeek--process
                                 (make-process :name "linkpeek" :command command
                                               :connection-type 'pipe :coding 'utf-8-emacs-unix
                                               :noquery t
                                               :stderr (get-buffer-create "*linkpeek stderr*")))))))
    (unless (eq linkpeek--generation generation)
      (error "linkpeek: the daemon exited at once (see *linkpeek stderr*)"))
    (setq linkpeek--connection conn)
    (condition-case err
        (jsonrpc-request conn (linkpeek-protocol-method 'initialize)
                         (list :processId (emacs-pid)
                               :clientInfo '(:name "linkpeek.el")
                               :capabilities linkpeek-protocol-capabilities
                               :initializationOptions
                               (linkpeek-protocol-init-options linkpeek-allow-private-network
                                                               linkpeek-timeout linkpeek-hover-timeout
                                                               linkpeek-hover-images
                                                               (or linkpeek-accept-language
                                                                   (linkpeek-protocol-editor-language))
                                                               (linkpeek-protocol-hover-options
                                                                linkpeek-hover-fetch linkpeek-hover-allow
                                                                linkpeek-hover-deny)))
                         :timeout 10)
      (error
       ;; A process that exits before jsonrpc.el sets its sentinel never
       ;; reports its death: count it here (a no-op if it was reported).
       (unless (jsonrpc-running-p conn) (linkpeek--on-shutdown generation))
       (signal (car err) (cdr err))))
    (jsonrpc-notify conn (linkpeek-protocol-method 'initialized) nil)
    conn))

(defun linkpeek--connection ()
  "The running connection, started on first use.
Signals `linkpeek-missing' when there is no binary."
  (if (and linkpeek--connection (jsonrpc-running-p linkpeek--connection))
      linkpeek--connection
    (setq linkpeek--stopping nil)
    (linkpeek--start)))

(defvar linkpeek--missing-checked nil
  "When (`float-time') the binary was last looked for and not found, or nil.")

(defconst linkpeek--missing-recheck 5
  "Seconds `linkpeek-mode' waits before it looks for a missing binary again.")

(defun linkpeek--quiet-connection ()
  "The connection for `linkpeek-mode', or nil without saying more than once why.
While the binary is missing, it is looked for again only every
`linkpeek--missing-recheck' seconds, and the install sentence is shown once
until it appears."
  (cond ((and linkpeek--connection (jsonrpc-running-p linkpeek--connection)) linkpeek--connection)
        ((and linkpeek--missing-checked
              (< (- (float-time) linkpeek--missing-checked) linkpeek--missing-recheck))
         nil)
        ((not (linkpeek-find-binary))
         (unless linkpeek--missing-checked (message "%s" (linkpeek--missing-message)))
         (setq linkpeek--missing-checked (float-time))
         nil)
        (t (setq linkpeek--missing-checked nil)
           (condition-case err (linkpeek--connection)
             (error (message "linkpeek: %s" (error-message-string err)) nil)))))

(defun linkpeek--command-connection ()
  "The connection for a command.
Without a binary, a `user-error' with the install sentence."
  (condition-case err (linkpeek--connection)
    (linkpeek-missing (user-error "%s" (cadr err)))))

(defconst linkpeek--walls
  '(("challenge" . "the site asked for a browser check before showing the page")
    ("consent" . "the site asked for cookie consent before showing the page")
    ("login" . "the site asked for a login before showing the page"))
  "What a `blocked' failure's `data.wall' means.")

(defun linkpeek--duration (seconds)
  "SECONDS for people: \"90 s\", \"5 min\", \"2 h\"."
  (let ((s (round (max 0 seconds))))
    (cond ((< s 120) (format "%d s" s))
          ((< s 7200) (format "%d min" (round s 60)))
          (t (format "%d h" (round s 3600))))))

(defun linkpeek-error-text (err)
  "One sentence for the JSON-RPC error ERR (a plist), by its `data.reason'.
A private-address refusal names the setting that lifts it, a wall what the
site asked for, a rate limit when to try again."
  (let ((message (linkpeek-card-clean (plist-get err :message)))
        (data (plist-get err :data)))
    (cond ((linkpeek-protocol-reason-p err 'blocked-address)
           ;; The daemon's message ends with its own names for the setting:
           ;; the sentence names linkpeek.el's instead, once.
           (let ((cut (and message (string-search linkpeek-protocol-blocked-address-message-hint message))))
             (when cut (setq message (and (> cut 0) (substring message 0 cut)))))
           (format "linkpeek: %s; to read loopback and intranet pages, set `linkpeek-allow-private-network' to t"
                   (or message "blocked: private address")))
          ((linkpeek-protocol-reason-p err 'blocked)
           (concat "linkpeek: "
                   (or message (concat "blocked: " (or (cdr (assoc (plist-get data :wall) linkpeek--walls))
                                                       "the site did not show the page")))))
          ((linkpeek-protocol-reason-p err 'rate-limited)
           (let ((after (plist-get data :retryAfter)))
             (concat "linkpeek: the site is limiting requests; "
                     (if (and (numberp after) (>= after 0) (< after 1e9))
                         (concat "try again in " (linkpeek--duration after))
                       "try again later"))))
          (t (concat "linkpeek: " (or message "the request failed"))))))

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
  "A message for the JSON-RPC error ERR of a saved-links request."
  (if (linkpeek-protocol-error-p err 'method-not-found)
      "linkpeek: this linkpeek daemon has no saved links (`save' needs a newer linkpeek)"
    (linkpeek-error-text err)))

(defun linkpeek-save-at-point (&optional url tags)
  "Save URL (default: the one at point) with TAGS in linkpeek's saved links."
  (interactive)
  (let ((url (or url (linkpeek-url-at-point) (user-error "linkpeek: no URL at point"))))
    (jsonrpc-async-request
     (linkpeek--command-connection) (linkpeek-protocol-method 'save)
     (append (list :url url) (and tags (list :tags (vconcat tags))))
     :success-fn (lambda (result)
                   (message "linkpeek: saved %s"
                            (or (linkpeek-card-clean
                                 (plist-get (linkpeek-protocol-entry-metadata result) :title))
                                url)))
     :error-fn (lambda (err) (message "%s" (linkpeek--message-for err)))
     :timeout (or linkpeek-timeout 30))))

(defcustom linkpeek-open-function #'browse-url
  "The function that opens a saved link chosen in `linkpeek-saved'.
It is called with one argument, the URL."
  :type 'function)

(defun linkpeek--saved-label (entry)
  "The label of a saved ENTRY in the list, and its URL: (LABEL . URL)."
  (let* ((meta (linkpeek-protocol-entry-metadata entry))
         (url (or (plist-get entry :url) (plist-get meta :url) (plist-get meta :originalURL) "?"))
         (title (linkpeek-card-clean (plist-get meta :title))))
    (cons (if title (format "%s — %s" title url) url) url)))

(defun linkpeek--open (url)
  "Open URL with `linkpeek-open-function'.
A failure is one message, not a backtrace."
  (condition-case err (funcall linkpeek-open-function url)
    (error (message "linkpeek: cannot open %s: %s" url (error-message-string err)))))

(defun linkpeek-saved (&optional tag)
  "Choose one of linkpeek's saved links and open it.
They are listed newest first; with TAG, only those tagged TAG."
  (interactive (list (let ((tag (read-string "linkpeek saved links with tag (empty: all): ")))
                       (unless (string-empty-p tag) tag))))
  (jsonrpc-async-request
   (linkpeek--command-connection) (linkpeek-protocol-method 'saved)
   (append (list :limit 200) (and tag (list :tag tag)))
   :success-fn
   (lambda (result)
     (let ((labels (mapcar #'linkpeek--saved-label (linkpeek-protocol-saved-entries result))))
       (if (null labels)
           (message "linkpeek: no saved links%s" (if tag (format " tagged %s" tag) ""))
         (let ((choice (completing-read "linkpeek saved link: " (mapcar #'car labels) nil t)))
           (when-let ((url (cdr (assoc choice labels))))
             (linkpeek--open url))))))
   :error-fn (lambda (err) (message "%s" (linkpeek--message-for err)))
   :timeout 10))

(defun linkpeek-doctor ()
  "Say which linkpeek binary is used, its version, and if the daemon answers.
The report goes to the *linkpeek doctor* buffer; it is also returned."
  (interactive)
  (let* ((binary (linkpeek-find-binary))
         (lines
          (if (not binary)
              (list (linkpeek--missing-message)
                    (concat "looked on exec-path, then in " (string-join (linkpeek--places) ", ")))
            (let* ((version (with-temp-buffer
                              (if (eql 0 (ignore-errors (call-process binary nil t nil "--version")))
                                  (string-trim (buffer-string))
                                (concat "`linkpeek --version' failed: " (string-trim (buffer-string))))))
                   (answer (condition-case err
                               (progn (jsonrpc-request (linkpeek--connection) (linkpeek-protocol-method 'get-cached)
                                                       '(:url "https://linkpeek.invalid/doctor") :timeout 5)
                                      (format "the daemon answers (pid %s)" (process-id linkpeek--process)))
                             (error (format "the daemon does not answer: %s" (error-message-string err))))))
              (list (concat "binary: " binary
                            (if (member linkpeek-binary '(nil "" "linkpeek")) "" " (linkpeek-binary)"))
                    (concat "version: " version)
                    answer)))))
    (with-current-buffer (get-buffer-create "*linkpeek doctor*")
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (string-join lines "\n") "\n"))
      (special-mode))
    (when (called-interactively-p 'interactive) (display-buffer "*linkpeek doctor*"))
    (string-join lines "\n")))

(provide 'linkpeek)
(require 'linkpeek-preview)
;;; linkpeek.el ends here
