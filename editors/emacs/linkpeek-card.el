;;; linkpeek-card.el --- Preview cards and URLs at point for linkpeek.el  -*- lexical-binding: t; -*-

;;; Commentary:

;; The card of a LinkMetadata as plain text (for the *linkpeek* buffer and
;; the echo area), and the URL at point.  Text from a page is inserted as
;; text: control characters and newlines are flattened to spaces, so a
;; hostile title cannot break lines or smuggle markup.

;;; Code:

(require 'cl-lib)
(require 'seq)
(require 'subr-x)

(defconst linkpeek-card-summary-max 300
  "Summaries are cut at a word boundary near this many characters.")

(defun linkpeek-card-clean (s)
  "S flattened to one line (control characters become spaces), or nil when empty."
  (when (stringp s)
    (let ((flat (string-trim
                 (replace-regexp-in-string
                  "[[:space:]]+" " "
                  (replace-regexp-in-string "[[:cntrl:]\u2028\u2029]" " " s)))))
      (unless (string-empty-p flat) flat))))

(defun linkpeek-card-host (url)
  "The host (and port) of URL, or nil."
  (when (and (stringp url) (string-match "\\`[a-zA-Z][a-zA-Z0-9+.-]*://\\([^/?#]+\\)" url))
    (match-string 1 url)))

(defun linkpeek-card-cut (s max)
  "S cut at a word boundary near MAX characters, with an ellipsis."
  (if (<= (length s) max)
      s
    (let* ((head (substring s 0 max))
           (space (string-match-p " [^ ]*\\'" head)))
      (concat (if (and space (> space (/ max 2))) (substring head 0 space) head) "…"))))

(defun linkpeek-card-lines (url meta status)
  "The card of URL from META (a LinkMetadata plist, maybe partial) as lines.
STATUS is a last line such as \"loading…\", or nil when complete."
  (let* ((final (or (plist-get meta :url) (plist-get meta :originalURL) url))
         (title (linkpeek-card-clean (plist-get meta :title)))
         (site (linkpeek-card-clean (plist-get meta :siteName)))
         (host (linkpeek-card-host final))
         (summary (linkpeek-card-clean (plist-get meta :summary)))
         (media (or (plist-get meta :video) (plist-get meta :image)))
         (media-url (linkpeek-card-clean (plist-get media :url)))
         (lines (list (propertize (or title host url) 'face 'bold))))
    (cond ((and site host (not (equal site host))) (push (format "%s · %s" site host) lines))
          ((and host title) (push host lines)))
    (when summary (push (linkpeek-card-cut summary linkpeek-card-summary-max) lines))
    (when media-url
      (push (format "%s: %s%s" (if (plist-get meta :video) "video" "image") media-url
                    (let ((w (plist-get media :width)) (h (plist-get media :height)))
                      (if (and (numberp w) (numberp h)) (format " (%d×%d)" w h) "")))
            lines))
    (when (and (plist-get meta :url) (not (equal (plist-get meta :url) url)))
      (push (concat "→ " (linkpeek-card-clean (plist-get meta :url))) lines))
    (when status (push status lines))
    (nreverse lines)))

(defun linkpeek-card-echo (url meta status)
  "The card of URL from META for the echo area: title, then site and summary."
  (let ((lines (linkpeek-card-lines url meta status)))
    (string-join (seq-take lines 3) "\n")))

;;; URLs

(defun linkpeek-card--trim (url)
  "URL without trailing punctuation, unless it closes a bracket the URL opened."
  (let ((done nil))
    (while (and (not done) (> (length url) 0))
      (let* ((last (aref url (1- (length url))))
             (open (cdr (assq last '((?\) . ?\() (?\] . ?\[))))))
        (cond ((not (memq last '(?. ?, ?\; ?: ?! ?? ?' ?\" ?> ?\) ?\])))
               (setq done t))
              ((and open (>= (cl-count open url) (cl-count last url)))
               (setq done t))
              (t (setq url (substring url 0 -1))))))
    url))

(defun linkpeek-card-urls-in-line (line)
  "Every URL of LINE as (URL START END), columns 0-based, END exclusive."
  (let ((start 0) found)
    (while (string-match "\\(?:[hH][tT][tT][pP][sS]?://\\|[wW][wW][wW]\\.\\)[^][:space:]<>\"'`{}|\\^]+\\(?:[][()][^][:space:]<>\"'`{}|\\^]*\\)*" line start)
      (let* ((beg (match-beginning 0))
             (raw (linkpeek-card--trim (match-string 0 line)))
             (before (and (> beg 0) (aref line (1- beg)))))
        (setq start (match-end 0))
        (unless (or (string-empty-p raw)
                    (and before (string-match-p "[[:alnum:]_]" (string before))))
          (push (list (if (string-match-p "\\`[wW][wW][wW]\\." raw) (concat "https://" raw) raw)
                      beg (+ beg (length raw)))
                found))))
    (nreverse found)))

(defun linkpeek-card-url-at (line column)
  "The URL of LINE that covers COLUMN (0-based), or nil."
  (car (seq-find (lambda (hit) (and (>= column (nth 1 hit)) (< column (nth 2 hit))))
                 (linkpeek-card-urls-in-line line))))

(provide 'linkpeek-card)
;;; linkpeek-card.el ends here
