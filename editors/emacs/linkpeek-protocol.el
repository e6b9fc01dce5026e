;;; linkpeek-protocol.el --- The linkpeek protocol as linkpeek.el uses it  -*- lexical-binding: t; -*-

;;; Commentary:

;; Method names, params, error codes and result fields of `linkpeek serve'.
;; This file mirrors protocol/README.md (sections 4-6) of the linkpeek
;; repository; when the protocol changes, this file changes with it, and no
;; other file of the package names a method or a field.

;;; Code:

(require 'cl-lib)
(require 'seq)
(require 'subr-x)

(defconst linkpeek-protocol-methods
  '((initialize . :initialize)
    (initialized . :initialized)
    (shutdown . :shutdown)
    (exit . :exit)
    (fetch . :fetch)            ; {url, timeout?, providerId?, workDoneToken?, partialResultToken?} -> LinkMetadata
    (get-cached . :getCached)   ; {url} -> LinkMetadata | null
    (cancel . :cancel)          ; {providerId} -> {cancelled}
    (cancel-work . :window/workDoneProgress/cancel) ; notification {token}: cancel the request using it
    (save . :save)              ; {url, tags?} -> the saved entry (saved links)
    (saved . :saved))           ; {tag?, limit?, offset?} -> entries, newest first
  "Protocol methods by the name linkpeek.el gives them.")

(defconst linkpeek-protocol-progress '$/progress
  "The notification that carries work-done progress and partial results.")

(defconst linkpeek-protocol-errors
  '((method-not-found . -32601)
    (invalid-params . -32602)
    (cancelled . -32800)
    (fetch-failed . -32000)
    (timed-out . -32005))
  "Error codes linkpeek.el tells apart.")

(defconst linkpeek-protocol-reasons
  '((blocked-address . "blockedAddress") ; a loopback/private address, refused by policy
    (blocked . "blocked")                ; the site showed a wall (`data.wall') instead of the page
    (rate-limited . "rateLimited"))      ; HTTP 429/503, with `data.retryAfter' seconds
  "The `data.reason' values of a failed request that linkpeek.el explains.
An open set (protocol/README.md section 5): any other is shown by its message.")

(defconst linkpeek-protocol-blocked-address-message-hint
  "; the allowPrivateNetwork setting (initializationOptions.allowPrivateNetwork, --allow-private-network) allows it"
  "How the message of a `blockedAddress' failure ends (protocol/README.md §5).
The daemon's names for the setting; linkpeek.el names its own instead.")

(defconst linkpeek-protocol-stages
  '(("resolving" . "looking up the host")
    ("connecting" . "connecting")
    ("waiting" . "waiting for the server")
    ("downloading" . "downloading the page")
    ("parsing" . "reading the page")
    ("icon" . "fetching the icon")
    ("image" . "fetching the image")
    ("transforming" . "making the thumbnail"))
  "Work-done progress stages (protocol/README.md, `$/progress') in order.
Each with the words the preview shows; a stage not listed (a newer
daemon's) is shown by its name.")

(defconst linkpeek-protocol-capabilities
  '(:textDocument (:hover (:contentFormat ["plaintext"])))
  "The client capabilities linkpeek.el announces in `initialize'.
Its cards are text (the echo area, *linkpeek*), so a hover card, if one is
ever asked for on its connection, comes as plain text: no Markdown syntax.")

(defun linkpeek-protocol-reason-p (err name)
  "Non-nil if the JSON-RPC error ERR has the `data.reason' called NAME."
  (equal (plist-get (plist-get err :data) :reason) (alist-get name linkpeek-protocol-reasons)))

(defconst linkpeek-protocol-ranges
  '((timeout 0.001 3600)          ; seconds
    (hover-timeout 0 60))         ; seconds
  "The daemon's ranges for the numbers linkpeek.el sends (ParamRanges).")

(defun linkpeek-protocol-method (name)
  "The wire method (a keyword) for NAME."
  (or (alist-get name linkpeek-protocol-methods)
      (error "linkpeek: unknown protocol method %s" name)))

(defun linkpeek-protocol-error-p (err name)
  "Non-nil if the JSON-RPC error ERR (a plist) has the code called NAME."
  (eql (plist-get err :code) (alist-get name linkpeek-protocol-errors)))

(defun linkpeek-protocol-accept-language (locale)
  "LOCALE, a POSIX locale name, as an Accept-Language value, or nil.
As the daemon reads its own locale (protocol/README.md §4d):
\"de_DE.UTF-8\" gives \"de-DE,de;q=0.9\", \"fr\" gives \"fr\"; nil for
\"C\", \"POSIX\" and names that are not a language (2-3 letters) with an
optional territory (2 letters or 3 digits)."
  (when (stringp locale)
    (let ((case-fold-search nil)
          (name (replace-regexp-in-string "\\..*\\'" ""
                                          (replace-regexp-in-string "@.*\\'" "" locale))))
      (cond
       ((string-match "\\`\\([A-Za-z]\\{2,3\\}\\)[_-]\\([A-Za-z]\\{2\\}\\|[0-9]\\{3\\}\\)\\'" name)
        (let ((language (downcase (match-string 1 name))))
          (format "%s-%s,%s;q=0.9" language (upcase (match-string 2 name)) language)))
       ((string-match "\\`[A-Za-z]\\{2,3\\}\\'" name) (downcase name))))))

(defun linkpeek-protocol-editor-language ()
  "Emacs's language for messages as an Accept-Language value, or nil.
`system-messages-locale', else the first of LC_ALL, LC_MESSAGES and LANG
set and not empty in the environment as Emacs sees it, else
`current-locale-environment'; nil when that is C or POSIX."
  (let ((locale (seq-find (lambda (v) (and (stringp v) (not (string-empty-p v))))
                          (list (bound-and-true-p system-messages-locale)
                                (getenv "LC_ALL") (getenv "LC_MESSAGES") (getenv "LANG")
                                (bound-and-true-p current-locale-environment)))))
    (linkpeek-protocol-accept-language locale)))

(defun linkpeek-protocol-init-options (allow-private timeout hover-timeout hover-images
                                                     &optional accept-language hover)
  "The initializationOptions of the settings.
ALLOW-PRIVATE and HOVER-IMAGES are booleans; TIMEOUT and HOVER-TIMEOUT are
seconds, or nil for the daemon's default.  ACCEPT-LANGUAGE is the
acceptLanguage (\"\" sends none), or nil to leave it to the daemon.
HOVER is the hover object (`linkpeek-protocol-hover-options'), or nil."
  (append (list :allowPrivateNetwork (if allow-private t :json-false)
                :hoverImages (if hover-images t :json-false))
          (and timeout (list :timeout timeout))
          (and hover-timeout (list :hoverTimeout hover-timeout))
          (and accept-language (list :acceptLanguage accept-language))
          (and hover (list :hover hover))))

(defun linkpeek-protocol-hover-options (fetch allow deny)
  "initializationOptions.hover of FETCH (a string) and ALLOW, DENY (lists).
Only the ones given (non-nil), so the daemon's configuration file keeps the
rest; nil when none is."
  (append (and fetch (list :fetch fetch))
          (and allow (list :allow (vconcat allow)))
          (and deny (list :deny (vconcat deny)))))

(defun linkpeek-protocol-fetch-params (url provider-id work partial timeout &optional hover)
  "Params of a fetch of URL as PROVIDER-ID, streaming on WORK and PARTIAL tokens.
HOVER non-nil: a hover card's fetch, which the daemon's hover setting governs."
  (append (list :url url)
          (and hover (list :hover t))
          (and provider-id (list :providerId provider-id))
          (and work (list :workDoneToken work))
          (and partial (list :partialResultToken partial))
          (and timeout (list :timeout timeout))))

(defun linkpeek-protocol-work-done-p (value)
  "Non-nil if VALUE is work-done progress (it has a kind).
A partial result is a LinkMetadata, which has none."
  (member (plist-get value :kind) '("begin" "report" "end")))

(defun linkpeek-protocol-saved-entries (result)
  "The entries of a `saved' RESULT: a bare array or an object that holds one."
  (cond ((vectorp result) (append result nil))
        ((and (consp result) (keywordp (car result)))
         (append (or (plist-get result :items) (plist-get result :links)
                     (plist-get result :saved))
                 nil))
        ((listp result) result)))

(defun linkpeek-protocol-entry-metadata (entry)
  "A saved ENTRY's metadata: nested under :metadata, or the entry itself."
  (or (plist-get entry :metadata) entry))

(provide 'linkpeek-protocol)
;;; linkpeek-protocol.el ends here
