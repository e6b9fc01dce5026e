;;; linkpeek-protocol.el --- The linkpeek protocol as linkpeek.el uses it  -*- lexical-binding: t; -*-

;;; Commentary:

;; Method names, params, error codes and result fields of `linkpeek serve'.
;; This file mirrors protocol/README.md (sections 4-6) of the linkpeek
;; repository; when the protocol changes, this file changes with it, and no
;; other file of the package names a method or a field.

;;; Code:

(require 'cl-lib)

(defconst linkpeek-protocol-methods
  '((initialize . :initialize)
    (initialized . :initialized)
    (shutdown . :shutdown)
    (exit . :exit)
    (fetch . :fetch)            ; {url, timeout?, providerId?, workDoneToken?, partialResultToken?} -> LinkMetadata
    (get-cached . :getCached)   ; {url} -> LinkMetadata | null
    (cancel . :cancel)          ; {providerId} -> {cancelled}
    (cancel-work . :window/workDoneProgress/cancel) ; notification {token}: cancel the request using it
    (save . :save)              ; {url, tags?} -> the saved entry (issue 7)
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

(defun linkpeek-protocol-init-options (allow-private timeout hover-timeout hover-images)
  "The initializationOptions of the settings.
ALLOW-PRIVATE and HOVER-IMAGES are booleans; TIMEOUT and HOVER-TIMEOUT are
seconds, or nil for the daemon's default."
  (append (list :allowPrivateNetwork (if allow-private t :json-false)
                :hoverImages (if hover-images t :json-false))
          (and timeout (list :timeout timeout))
          (and hover-timeout (list :hoverTimeout hover-timeout))))

(defun linkpeek-protocol-fetch-params (url provider-id work partial timeout)
  "Params of a fetch of URL as PROVIDER-ID, streaming on WORK and PARTIAL tokens."
  (append (list :url url)
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
