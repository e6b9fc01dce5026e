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

(defconst linkpeek-card--default-ports '(("http" . 80) ("https" . 443))
  "The ports a card's host leaves out, by scheme.")

(defun linkpeek-card-host (url)
  "The host of URL as the daemon's cards show it, or nil.
Lowercased, with the port unless it is the scheme's default, never the
user name or password before an `@'."
  (when (and (stringp url) (string-match "\\`\\([a-zA-Z][a-zA-Z0-9+.-]*\\)://\\([^/?#]+\\)" url))
    (let* ((scheme (downcase (match-string 1 url)))
           (authority (downcase (replace-regexp-in-string "\\`.*@" "" (match-string 2 url)))))
      (when (and (string-match "\\`\\(.*\\):\\([0-9]+\\)\\'" authority)
                 (eql (string-to-number (match-string 2 authority))
                      (cdr (assoc scheme linkpeek-card--default-ports))))
        (setq authority (match-string 1 authority)))
      (unless (string-empty-p authority) authority))))

(defun linkpeek-card-cut (s max)
  "S cut at a word boundary near MAX characters, with an ellipsis."
  (if (<= (length s) max)
      s
    (let* ((head (substring s 0 max))
           (space (string-match-p " [^ ]*\\'" head)))
      (concat (if (and space (> space (/ max 2))) (substring head 0 space) head) "…"))))

(defun linkpeek-card-lines (url meta status &optional images)
  "The card of URL from META (a LinkMetadata plist, maybe partial) as lines.
STATUS is a last line such as \"loading…\", or nil when complete.  IMAGES
non-nil adds the video line, or the image line once the image is verified."
  (let* ((final (or (plist-get meta :url) (plist-get meta :originalURL) url))
         (title (linkpeek-card-clean (plist-get meta :title)))
         (site (linkpeek-card-clean (plist-get meta :siteName)))
         (host (linkpeek-card-host final))
         (summary (linkpeek-card-clean (plist-get meta :summary)))
         ;; As in the daemon's cards: an image only once linkpeek fetched
         ;; it and its bytes were an image (`image.bytes', protocol §6),
         ;; never one refused, failed, or only declared (a partial result); a
         ;; video is only named, never loaded, so it always counts.
         (image (plist-get meta :image))
         (media (or (plist-get meta :video) (and (numberp (plist-get image :bytes)) image)))
         (media-url (linkpeek-card-clean (plist-get media :url)))
         (lines (list (propertize (or title host url) 'face 'bold))))
    (cond ((and site host (not (equal site host))) (push (format "%s · %s" site host) lines))
          ((and host title) (push host lines)))
    (let ((facts (linkpeek-card-site-line (plist-get meta :site))))
      (when facts (push facts lines)))
    (when summary (push (linkpeek-card-cut summary linkpeek-card-summary-max) lines))
    (when (and images media-url)
      (push (format "%s: %s%s" (if (plist-get meta :video) "video" "image") media-url
                    (let ((w (plist-get media :width)) (h (plist-get media :height)))
                      (if (and (numberp w) (numberp h)) (format " (%d×%d)" w h) "")))
            lines))
    (when (and (plist-get meta :url) (not (equal (plist-get meta :url) url)))
      (push (concat "→ " (linkpeek-card-clean (plist-get meta :url))) lines))
    (when status (push status lines))
    (nreverse lines)))

(defun linkpeek-card-wrap (s width)
  "S broken into lines of at most WIDTH columns at spaces.
A word wider than WIDTH keeps a line of its own, whole."
  (let ((lines nil) (line ""))
    (dolist (word (split-string s " " t))
      (if (and (not (string-empty-p line)) (> (string-width (concat line " " word)) width))
          (progn (push line lines) (setq line word))
        (setq line (if (string-empty-p line) word (concat line " " word)))))
    (unless (string-empty-p line) (push line lines))
    (nreverse lines)))

(defconst linkpeek-card-echo-summary-lines 3
  "The echo area shows at most this many lines of summary.")

(defun linkpeek-card-echo (url meta status &optional width)
  "The card of URL from META for the echo area: title, site, summary, STATUS.
A site engine's facts line (`linkpeek-card-site-line') follows the site.
The summary wraps at word boundaries to WIDTH columns (default: the
frame's width less one), at most `linkpeek-card-echo-summary-lines' lines."
  (let* ((width (max 20 (or width (1- (frame-width)))))
         (title (linkpeek-card-clean (plist-get meta :title)))
         (summary (linkpeek-card-clean (plist-get meta :summary)))
         (head (seq-take (linkpeek-card-lines url (list :title title :siteName (plist-get meta :siteName)
                                                        :url (plist-get meta :url)
                                                        :originalURL (plist-get meta :originalURL))
                                              nil)
                         2))
         (facts (linkpeek-card-site-line (plist-get meta :site)))
         (wrapped (and summary (linkpeek-card-wrap (linkpeek-card-cut summary linkpeek-card-summary-max) width))))
    (when (> (length wrapped) linkpeek-card-echo-summary-lines)
      (let ((last (nth (1- linkpeek-card-echo-summary-lines) wrapped)))
        ;; Room for the ellipsis: drop whole words from the end, never cut one.
        (while (and (> (string-width (concat last " …")) width) (string-match-p " " last))
          (setq last (substring last 0 (string-match " [^ ]*\\'" last))))
        (setq wrapped (append (seq-take wrapped (1- linkpeek-card-echo-summary-lines))
                              (list (concat last " …"))))))
    (string-join (append (seq-filter (lambda (l) (not (string-prefix-p "→ " l))) head)
                         (and facts (list facts)) wrapped (and status (list status)))
                 "\n")))

;;; Site engines

(defconst linkpeek-card--checks
  '(("success" . "✓ checks passed") ("failure" . "✗ checks failed") ("pending" . "checks pending"))
  "A commit's checks, as the daemon's cards say them.")

(defun linkpeek-card--count (n noun)
  "N NOUN, plural unless N is 1."
  (format "%d %s%s" n noun (if (eql n 1) "" "s")))

(defun linkpeek-card--day (instant)
  "The day (YYYY-MM-DD) of the ISO 8601 INSTANT, or nil.
Cards show the day, never \"3 days ago\", so a cached card never goes stale."
  (and (stringp instant) (>= (length instant) 10) (substring instant 0 10)))

(defun linkpeek-card--words (list)
  "The strings of LIST (a JSON array) joined with commas, or nil."
  (let ((words (seq-filter #'stringp (and (or (vectorp list) (listp list)) (append list nil)))))
    (and words (string-join words ", "))))

(defun linkpeek-card-site-line (site)
  "The one line of a preview a site engine read (SITE, the `site' plist).
Word for word as the daemon's own cards make it (protocol §6b):
\"merged · #4123 · 12 comments · bug, performance\",
\"✓ accepted · score 231 · 14 answers\", \"v2.3.1 · MIT · 2026-01-05\".
nil when SITE is absent or says nothing a card shows."
  (when (and (listp site) (plist-get site :kind))
    (let* ((kind (plist-get site :kind))
           (str (lambda (key) (let ((v (plist-get site key))) (and (stringp v) v))))
           (int (lambda (key) (let ((v (plist-get site key))) (and (integerp v) v))))
           (parts
            (pcase kind
              ((or "issue" "pullRequest" "mergeRequest")
               (list (funcall str :state)
                     (and (funcall int :number) (format "#%d" (funcall int :number)))
                     (and (funcall int :comments) (linkpeek-card--count (funcall int :comments) "comment"))
                     (linkpeek-card--words (plist-get site :labels))))
              ((or "question" "answer")
               (list (and (eq (plist-get site :accepted) t) "✓ accepted")
                     (funcall str :state)
                     (and (funcall int :score) (format "score %d" (funcall int :score)))
                     (and (funcall int :answers) (linkpeek-card--count (funcall int :answers) "answer"))
                     (linkpeek-card--words (plist-get site :tags))))
              ((or "repository" "file" "folder")
               (list (and (funcall int :stars) (format "★ %d" (funcall int :stars)))
                     (funcall str :language) (funcall str :license)
                     (and (funcall str :latestRelease) (concat "latest " (funcall str :latestRelease)))))
              ("commit"
               (list (and (funcall str :version) (concat "commit " (funcall str :version)))
                     (linkpeek-card--day (plist-get site :createdAt))
                     (let ((checks (funcall str :checks)))
                       (and checks (or (cdr (assoc checks linkpeek-card--checks)) (concat "checks " checks))))))
              ("release"
               (list (funcall str :version) (funcall str :state) (linkpeek-card--day (plist-get site :createdAt))))
              ("paper"
               (let ((authors (plist-get site :authors)) (day (linkpeek-card--day (plist-get site :createdAt))))
                 (list (funcall str :category)
                       (and (or (vectorp authors) (consp authors)) (linkpeek-card--count (length authors) "author"))
                       (and day (concat "submitted " day)))))
              ("package"
               (let ((version (funcall str :version)))
                 (list (and version (if (string-match-p "\\`[0-9]" version) (concat "v" version) version))
                       (funcall str :license) (linkpeek-card--day (plist-get site :createdAt)))))
              ("gist"
               (list "gist" (and (funcall int :comments) (linkpeek-card--count (funcall int :comments) "comment"))))
              (_ (list (funcall str :description) (funcall str :language)))))
           (shown (delq nil (mapcar #'linkpeek-card-clean parts))))
      (and shown (string-join shown " · ")))))

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

(defun linkpeek-card--link-text-start (line beg)
  "Where the words of a Markdown link `[words](URL)' start.
URL starts at BEG of LINE; nil when it is not such a link."
  (when (and (>= beg 3) (string= (substring line (- beg 2) beg) "]("))
    (let ((open (cl-position ?\[ line :end (- beg 2) :from-end t)))
      (when (and open (not (cl-position ?\] line :start open :end (- beg 2))))
        open))))

(defun linkpeek-card-url-at (line column)
  "The URL of LINE that covers COLUMN (0-based), or nil.
The words of a Markdown link `[words](URL)' count as the URL."
  (car (seq-find (lambda (hit)
                   (let ((start (or (linkpeek-card--link-text-start line (nth 1 hit)) (nth 1 hit))))
                     (and (>= column start) (< column (nth 2 hit)))))
                 (linkpeek-card-urls-in-line line))))

(provide 'linkpeek-card)
;;; linkpeek-card.el ends here
