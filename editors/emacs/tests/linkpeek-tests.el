;;; linkpeek-tests.el --- ERT tests of linkpeek.el against the real daemon  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by Tests/editors/test_emacs.py, which starts a loopback fixture
;; server: LINKPEEK_BIN, LINKPEEK_FIXTURE=http://127.0.0.1:PORT.
;;   emacs --batch -Q -L editors/emacs -l editors/emacs/tests/linkpeek-tests.el \
;;         -f ert-run-tests-batch-and-exit
;; Every wait is bounded.

;;; Code:

(require 'ert)
(require 'linkpeek)

(defvar linkpeek-test-base (or (getenv "LINKPEEK_FIXTURE") (error "LINKPEEK_FIXTURE not set")))
(setq linkpeek-binary (or (getenv "LINKPEEK_BIN") (error "LINKPEEK_BIN not set"))
      linkpeek-allow-private-network t
      linkpeek-hover-images t
      linkpeek-hover-timeout 1.0)

(defun linkpeek-test-host ()
  (linkpeek-card-host linkpeek-test-base))

(defmacro linkpeek-test-wait (seconds what &rest condition)
  "Wait up to SECONDS for CONDITION; fail naming WHAT."
  (declare (indent 2))
  `(let ((deadline (+ (float-time) ,seconds)))
     (while (and (not (progn ,@condition)) (< (float-time) deadline))
       (accept-process-output nil 0.02))
     (unless (progn ,@condition)
       (ert-fail (format "timed out after %ss waiting for %s" ,seconds ,what)))))

(defmacro linkpeek-test-with-line (text column &rest body)
  "Run BODY in a buffer holding TEXT, point at COLUMN, shown in the selected window."
  (declare (indent 2))
  `(let ((buffer (generate-new-buffer "linkpeek-test")))
     (unwind-protect
         (progn
           (switch-to-buffer buffer)
           (insert ,text)
           (goto-char (+ (line-beginning-position) ,column))
           ,@body)
       (kill-buffer buffer))))

(defun linkpeek-test-stop (conn)
  "Stop CONN's daemon: shutdown, exit, and wait (bounded) for it to go."
  (ignore-errors (jsonrpc-request conn :shutdown nil :timeout 2))
  (ignore-errors (jsonrpc-notify conn :exit nil))
  (linkpeek-test-wait 5 "the test's daemon to exit" (not (jsonrpc-running-p conn)))
  (jsonrpc-shutdown conn))

(defun linkpeek-test-preview (url)
  "Preview URL; return the updates (PHASE LINES TIME) in order, once done."
  (let ((seen nil))
    (let ((linkpeek-preview-update-functions
           (list (lambda (phase lines) (push (list phase lines (float-time)) seen)))))
      (linkpeek-preview-at-point url)
      (linkpeek-test-wait 10 "the preview to finish" (memq (car (car seen)) '(done error))))
    (nreverse seen)))

(defun linkpeek-test-eldoc (text column)
  "Run the eldoc function on TEXT at COLUMN; return (RETURNED DOC)."
  (linkpeek-test-with-line text column
    (let* ((doc nil)
           (returned (linkpeek-eldoc-function (lambda (d &rest _) (setq doc d)))))
      (when returned
        (linkpeek-test-wait 5 "the eldoc answer" doc))
      (list returned doc))))

(ert-deftest linkpeek-urls-table ()
  (dolist (c `(("see https://a.example/x." 6 "https://a.example/x")
               ("(https://en.wikipedia.org/wiki/Foo_(bar))" 3 "https://en.wikipedia.org/wiki/Foo_(bar)")
               ("[t](http://a.example/c \"title\")" 6 "http://a.example/c")
               ("<https://a.example/auto>" 2 "https://a.example/auto")
               ("go www.example.org/page, now" 5 "https://www.example.org/page")
               ("😀 日本 https://a.example/emoji" 8 "https://a.example/emoji")
               ("xhttps://not.a.url/" 3 nil)
               ("plain text" 2 nil)))
    (should (equal (linkpeek-card-url-at (nth 0 c) (nth 1 c)) (nth 2 c)))))

(ert-deftest linkpeek-preview-fills-in ()
  "The *linkpeek* card: host and loading, then the partial card, then the whole card."
  (let* ((url (concat linkpeek-test-base "/slowimage?ms=1500"))
         (seen (linkpeek-test-preview url))
         (partial (seq-find (lambda (s) (eq (car s) 'partial)) seen))
         (done (car (last seen))))
    (should (equal (car seen) (list 'open (list (linkpeek-test-host) "loading…") (nth 2 (car seen)))))
    (should partial)
    ;; No image line until linkpeek has fetched the image (as in the daemon's cards).
    (should (equal (nth 1 partial) (list "Slow Image Page" (concat "Fixture Site · " (linkpeek-test-host))
                                         "The head is quick; the image is not."
                                         "loading…")))
    (should (eq (car done) 'done))
    ;; The partial card came first, while the image was still loading.
    (should (< (cl-position partial seen) (cl-position done seen)))
    (should (equal (car (last (nth 1 done)))
                   (concat "image: " linkpeek-test-base "/img-slow?ms=1500 (40×20)")))
    (should (equal (with-current-buffer "*linkpeek*" (buffer-string))
                   (concat (string-join (nth 1 done) "\n") "\n")))))

(defun linkpeek-test-title-in (n)
  "The title of a preview of the fixture's /lang page (its Accept-Language), asked of a new daemon.
N keeps each URL apart."
  (linkpeek-shutdown)
  (car (nth 1 (car (last (linkpeek-test-preview (format "%s/lang?emacs=%d" linkpeek-test-base n)))))))

(ert-deftest linkpeek-language-is-emacss ()
  "Previews are asked in Emacs's language; `linkpeek-accept-language' overrides it.
Tests/editors/test_emacs.py runs Emacs with LANG=C: only the plugin can say German."
  (unwind-protect
      (progn
        (let ((system-messages-locale "de_DE.UTF-8"))
          (should (equal (linkpeek-test-title-in 1) "lang de-DE,de;q=0.9")))
        (let ((linkpeek-accept-language "pt-BR, pt;q=0.8"))
          (should (equal (linkpeek-test-title-in 2) "lang pt-BR, pt;q=0.8")))
        ;; "" sends none, though the daemon's own locale would say German.
        (let ((linkpeek-accept-language "")
              (process-environment (cons "LANG=de_DE.UTF-8" process-environment)))
          (should (equal (linkpeek-test-title-in 3) "lang none"))))
    (linkpeek-shutdown)))

(ert-deftest linkpeek-language-from-a-locale-name ()
  "POSIX locale names as Accept-Language values, as the daemon converts its own."
  (should (equal (linkpeek-protocol-accept-language "de_DE.UTF-8") "de-DE,de;q=0.9"))
  (should (equal (linkpeek-protocol-accept-language "fr") "fr"))
  (should (equal (linkpeek-protocol-accept-language "es_419@x") "es-419,es;q=0.9"))
  (should (null (linkpeek-protocol-accept-language "C")))
  (should (null (linkpeek-protocol-accept-language "C.UTF-8")))
  (should (null (linkpeek-protocol-accept-language "POSIX")))
  (should (null (linkpeek-protocol-accept-language "de_DEU")))
  (let ((system-messages-locale "C") (process-environment '("LANG=C")))
    (should (null (linkpeek-protocol-editor-language)))
    (should-not (plist-member (linkpeek-protocol-init-options nil nil nil nil (linkpeek-protocol-editor-language))
                              :acceptLanguage)))
  (let ((system-messages-locale nil) (process-environment '("LC_ALL=" "LC_MESSAGES=sv_SE.UTF-8" "LANG=de_DE")))
    (should (equal (linkpeek-protocol-editor-language) "sv-SE,sv;q=0.9"))))

;; Tests/editors/test_emacs.py checks that the fixture saw only emacshover=4.
(defun linkpeek-test-eldoc-new-daemon (n)
  "The eldoc card of the fixture's page N, asked of a new daemon."
  (linkpeek-shutdown)
  (nth 1 (linkpeek-test-eldoc (format "see %s/page?title=Held%d&emacshover=%d end" linkpeek-test-base n n) 6)))

(ert-deftest linkpeek-eldoc-hover-fetch ()
  "`linkpeek-hover-fetch', `-allow', `-deny' and the daemon's file's [hover] hold the card's fetch."
  (let ((held (regexp-quote "not fetched: hover fetching is off for 127.0.0.1"))
        (file (make-temp-file "linkpeek-config" nil ".toml" "[hover]\nfetch = \"cacheOnly\"\n")))
    (unwind-protect
        (progn
          (let ((linkpeek-hover-fetch "cacheOnly"))
            (should (string-match-p held (linkpeek-test-eldoc-new-daemon 1))))
          (let ((linkpeek-hover-deny '("127.0.0.1")))
            (should (string-match-p held (linkpeek-test-eldoc-new-daemon 2))))
          ;; Nothing set in Emacs: the daemon's configuration file decides.
          (let ((process-environment (cons (concat "LINKPEEK_CONFIG=" file) process-environment)))
            (should (string-match-p held (linkpeek-test-eldoc-new-daemon 3))))
          (let ((linkpeek-hover-fetch "allowList") (linkpeek-hover-allow '("127.0.0.1")))
            (let ((card (linkpeek-test-eldoc-new-daemon 4)))
              (should (string-prefix-p "Held4" card))
              (should-not (string-match-p held card))))
          ;; An explicit preview still fetches under cacheOnly.
          (let ((linkpeek-hover-fetch "cacheOnly"))
            (linkpeek-shutdown)
            (let ((done (car (last (linkpeek-test-preview
                                    (concat linkpeek-test-base "/page?title=Held5&emacshover=5"))))))
              (should (equal (car (nth 1 done)) "Held5")))))
      (delete-file file)
      (linkpeek-shutdown))))

(ert-deftest linkpeek-preview-failure-says-why ()
  (let ((done (car (last (linkpeek-test-preview "http://127.0.0.1:9/closed")))))
    (should (eq (car done) 'error))
    (should (string-prefix-p "linkpeek: Metadata fetch failed" (car (last (nth 1 done)))))))

(ert-deftest linkpeek-eldoc-card ()
  "Point on a URL: the echo area gets the title, site and summary."
  (let ((r (linkpeek-test-eldoc (concat "A link: " linkpeek-test-base "/page?title=Eldoc+Title end") 12)))
    (should (nth 0 r))
    (should (equal (nth 1 r) (concat "Eldoc Title\nFixture Site · " (linkpeek-test-host)
                                     "\nAn Open Graph description.")))))

(ert-deftest linkpeek-eldoc-plain-text ()
  "Point on plain text: no card, no request."
  (should (equal (car (linkpeek-test-eldoc "no links on this line" 4)) nil)))

(ert-deftest linkpeek-eldoc-hostile-title ()
  "A hostile title is one line of text: its newlines cannot add lines."
  (let ((doc (nth 1 (linkpeek-test-eldoc (concat linkpeek-test-base "/hostile") 3))))
    (should (equal (car (split-string doc "\n"))
                   "Evil](javascript:alert(1)) <img src=x onerror=alert(2)> ``` # heading [x]: javascript:alert(3)"))
    (should (= (length (split-string doc "\n")) 3))))

(ert-deftest linkpeek-eldoc-slow-page ()
  "A slow page: eldoc shows what is known, then the whole card when the fetch ends, point unmoved."
  (let ((url (concat linkpeek-test-base "/slow?ms=2500&title=Slowly+Done"))
        (shown nil) (outcomes nil))
    (linkpeek-test-with-line (concat "see " url " now") 6
      (linkpeek-mode 1)
      (let ((eldoc-display-functions
             (list (lambda (docs _interactive) (push (mapconcat #'car docs "\n") shown))))
            (linkpeek-eldoc-outcome-functions (list (lambda (o _url) (push o outcomes)))))
        (eldoc-print-current-symbol-info t)
        (linkpeek-test-wait 10 "the second card" (= (length shown) 2)))
      (linkpeek-mode -1))
    (setq shown (nreverse shown))
    ;; The loading card first (the page was not done: no title yet), then the refresh.
    (should (equal (car shown) (concat (linkpeek-test-host) "\nloading…")))
    (should (equal (reverse outcomes) '(shown refresh)))
    (should (string-prefix-p "Slowly Done\n" (nth 1 shown)))))

(ert-deftest linkpeek-eldoc-point-moved ()
  "Point leaves the link before the answer: no card pops up where point went."
  (let ((url (concat linkpeek-test-base "/slow?ms=2500&title=Moved+Away"))
        (doc nil) (outcomes nil) (streams nil))
    (linkpeek-test-with-line (concat "plain words here\n" url) 3
      (let ((linkpeek-eldoc-outcome-functions (list (lambda (o _url) (push o outcomes))))
            (before (hash-table-count linkpeek--streams)))
        (should (linkpeek-eldoc-function (lambda (d &rest _) (setq doc d))))
        (setq streams (hash-table-count linkpeek--streams))
        (should (= streams (1+ before)))
        (forward-line -1)
        (linkpeek-test-wait 5 "the eldoc outcome" outcomes)
        ;; A state, not a pause: the fetch has ended (its token's stream is
        ;; gone), so a refresh would have come by now.
        (linkpeek-test-wait 15 "the fetch to end" (= (hash-table-count linkpeek--streams) before))))
    (should (equal outcomes '(dropped)))
    (should (null doc))))

(ert-deftest linkpeek-eldoc-wraps-at-words ()
  "The echo card's summary wraps at spaces, within the width, no word cut."
  (let* ((words (split-string "linkpeek brings what LinkPresentation gives iOS apps to every Linux program: give it a URL, get back a rich preview" " "))
         (card (linkpeek-card-echo "https://a.example/x" (list :title "T" :summary (string-join words " ")) nil 30))
         (lines (cdr (split-string card "\n"))))
    (should (equal (car lines) "a.example"))
    (should (= (length (cdr lines)) 3))
    (dolist (line (cdr lines)) (should (<= (string-width line) 30)))
    (should (equal (cdr lines) '("linkpeek brings what" "LinkPresentation gives iOS" "apps to every Linux program: …")))
    (let ((narrow (split-string (linkpeek-card-echo "https://a.example/x" (list :title "T" :summary (string-join words " "))
                                                    nil 23)
                                "\n")))
      ;; The third line, "iOS apps to every Linux", is 23 wide: a word goes for the ellipsis.
      (dolist (line narrow) (should (<= (string-width line) 23)))
      (should (equal (car (last narrow)) "iOS apps to every …")))
    (should (equal (linkpeek-card-wrap (string-join words " ") 30)
                   '("linkpeek brings what" "LinkPresentation gives iOS" "apps to every Linux program:"
                     "give it a URL, get back a rich" "preview")))
    (should (equal (linkpeek-card-wrap "abcdefghijklmnopqrstuvwxyz0123456789 ok" 10)
                   '("abcdefghijklmnopqrstuvwxyz0123456789" "ok")))))

(ert-deftest linkpeek-link-words ()
  "The words of a Markdown link count as its URL."
  (dolist (c '(("see [the docs](http://a.example/d) now" 6 "http://a.example/d")
               ("see [the docs](http://a.example/d) now" 4 "http://a.example/d")
               ("see [the docs](http://a.example/d) now" 20 "http://a.example/d")
               ("see [the docs](http://a.example/d) now" 3 nil)
               ("see [the docs](http://a.example/d) now" 34 nil)
               ("[a] and [b](http://a.example/b)" 1 nil)
               ("[a] and [b](http://a.example/b)" 9 "http://a.example/b")))
    (should (equal (list (nth 1 c) (linkpeek-card-url-at (nth 0 c) (nth 1 c))) (list (nth 1 c) (nth 2 c))))))

(ert-deftest linkpeek-cancel-keeps-emacs-responsive ()
  "Cancelling a loading preview cancels its fetch (-32800); the next preview works at once."
  (linkpeek-preview-at-point (concat linkpeek-test-base "/slow?ms=8000&title=Never"))
  (let ((preview linkpeek--preview))
    (accept-process-output nil 0.2)
    (linkpeek-cancel-preview)
    (should (null linkpeek--preview))
    ;; Within 5 s of a page that takes 8: the cancel was answered, not the page.
    (linkpeek-test-wait 5 "the cancelled fetch's answer" (plist-get preview :error-code))
    (should (eql (plist-get preview :error-code) -32800)))
  (let ((seen (linkpeek-test-preview (concat linkpeek-test-base "/page?title=Next"))))
    (should (equal (car (nth 1 (car (last seen)))) "Next"))))

(ert-deftest linkpeek-save-at-point ()
  "The link is saved, and the daemon says so."
  (let ((probe 'none))
    (jsonrpc-async-request (linkpeek--connection) :saved '(:limit 1)
                           :success-fn (lambda (_) (setq probe 'supported))
                           :error-fn (lambda (e) (setq probe (plist-get e :code))) :timeout 3)
    (linkpeek-test-wait 3 "the probe" (not (eq probe 'none)))
    (let ((messages nil))
      (cl-letf (((symbol-function 'message) (lambda (fmt &rest args) (push (apply #'format fmt args) messages))))
        (linkpeek-test-with-line (concat linkpeek-test-base "/page?title=Saved+Page") 3
          (linkpeek-save-at-point))
        (linkpeek-test-wait 5 "the save message" messages))
      (should (eq probe 'supported))
      (should (equal messages '("linkpeek: saved Saved Page"))))))

(ert-deftest linkpeek-restart-after-death ()
  "A daemon that dies is started again, with backoff."
  (let* ((old (linkpeek--connection))
         (pid (process-id (jsonrpc--process old))))
    (signal-process pid 'KILL)
    (linkpeek-test-wait 3 "the old connection to go" (null linkpeek--connection))
    (linkpeek-test-wait 5 "a new daemon" linkpeek--connection)
    (should-not (eq linkpeek--connection old))
    (let ((seen (linkpeek-test-preview (concat linkpeek-test-base "/page?title=Restarted"))))
      (should (equal (car (nth 1 (car (last seen)))) "Restarted")))))

(ert-deftest linkpeek-z-zz-restart-gives-up ()
  "A daemon that keeps dying is restarted after each delay, then left alone."
  (let* ((dir (make-temp-file "linkpeek-el-" t))
         (counter (expand-file-name "starts" dir))
         (fake (expand-file-name "fake-linkpeek" dir))
         (linkpeek-binary fake)
         (linkpeek-restart-delays '(0.02 0.04 0.08))
         (messages nil))
    (with-temp-file fake (insert "#!/bin/sh\necho started >> '" counter "'\nexit 1\n"))
    (set-file-modes fake #o700)
    (cl-letf (((symbol-function 'message)
               (lambda (fmt &rest args) (push (apply #'format fmt args) messages))))
      (ignore-errors (linkpeek--connection))
      (linkpeek-test-wait 5 (format "the give-up message among %S" messages)
        (member "linkpeek: the daemon keeps exiting; not restarting it (see *linkpeek stderr*)" messages))
      (let ((deadline (+ (float-time) 0.3)))
        (while (< (float-time) deadline) (accept-process-output nil 0.05))))
    (should (= (length (split-string (with-temp-buffer (insert-file-contents counter) (buffer-string)) "\n" t))
               4))
    (setq linkpeek--deaths 0)
    (delete-directory dir t)))

(ert-deftest linkpeek-z-shutdown ()
  "shutdown, exit, jsonrpc-shutdown: the daemon exits with status 0."
  (let* ((conn (linkpeek--connection))
         (proc (jsonrpc--process conn)))
    (linkpeek-shutdown)
    (should-not (process-live-p proc))
    (should (eql (process-exit-status proc) 0))
    (should (null linkpeek--connection))))

(ert-deftest linkpeek-mode-turns-on-eldoc ()
  (with-temp-buffer
    (linkpeek-mode 1)
    (should (memq #'linkpeek-eldoc-function eldoc-documentation-functions))
    (should eldoc-mode)
    (linkpeek-mode -1)
    (should-not (memq #'linkpeek-eldoc-function eldoc-documentation-functions))))

(ert-deftest linkpeek-bad-timeout-is-refused ()
  (let ((linkpeek-hover-timeout -1) (linkpeek--connection nil))
    (should (equal (cadr (should-error (linkpeek--start) :type 'user-error))
                   "linkpeek: linkpeek-hover-timeout must be a number of seconds from 0 to 60"))))

(ert-deftest linkpeek-missing-binary ()
  "No binary: one sentence naming how to install it, said once; eldoc asks no more until it appears."
  (let ((linkpeek-binary nil) (exec-path nil) (messages nil) (started nil)
        (linkpeek--connection nil) (linkpeek--generation nil) (linkpeek--missing-checked nil))
    (cl-letf (((symbol-function 'linkpeek--places) (lambda () nil))
              ((symbol-function 'message) (lambda (fmt &rest args) (push (apply #'format fmt args) messages))))
      (linkpeek-test-with-line (concat linkpeek-test-base "/page?title=Missing") 3
        (should-not (linkpeek-eldoc-function #'ignore))
        (should-not (linkpeek-eldoc-function #'ignore))
        (should (equal messages (list linkpeek-install-message)))
        (should (equal (cadr (should-error (linkpeek-preview-at-point) :type 'user-error))
                       linkpeek-install-message))
        (should (equal (cadr (should-error (linkpeek-save-at-point) :type 'user-error))
                       linkpeek-install-message))
        (should (string-prefix-p (concat linkpeek-install-message "\nlooked on exec-path, then in ")
                                 (linkpeek-doctor)))
        ;; The binary appears: once the recheck delay is over, the mode uses it.
        (setq exec-path (list (file-name-directory (getenv "LINKPEEK_BIN"))))
        (let ((doc nil))
          (should-not (linkpeek-eldoc-function (lambda (d &rest _) (setq doc d))))
          (setq linkpeek--missing-checked (- (float-time) 60))
          (should (linkpeek-eldoc-function (lambda (d &rest _) (setq doc d))))
          (linkpeek-test-wait 5 "the card once the binary is there" doc)
          (setq started linkpeek--connection)
          (should (string-prefix-p "Missing\n" doc)))
        (should (= (length messages) 1))))
    ;; The daemon this test started goes; the others' connection is untouched.
    (when started (linkpeek-test-stop started))))

(ert-deftest linkpeek-binary-is-set-wrong ()
  "A `linkpeek-binary' that is not an executable says so, naming the setting."
  (let ((linkpeek-binary "/nonexistent/linkpeek") (linkpeek--connection nil))
    (should-not (linkpeek-find-binary))
    (should (string-prefix-p "linkpeek: `linkpeek-binary' is \"/nonexistent/linkpeek\", which is not an executable file"
                             (cadr (should-error (linkpeek--command-connection) :type 'user-error))))))

(ert-deftest linkpeek-binary-places ()
  "exec-path first, then ~/.local/bin, /usr/local/bin, /opt/linkpeek/bin, /usr/bin, <prefix>/bin."
  (let ((linkpeek--package-directory "/opt/x/share/linkpeek/editors/emacs/"))
    (should (equal (linkpeek--places)
                   (list (expand-file-name "~/.local/bin/linkpeek") "/usr/local/bin/linkpeek"
                         "/opt/linkpeek/bin/linkpeek" "/usr/bin/linkpeek" "/opt/x/bin/linkpeek"))))
  (let ((linkpeek--package-directory "/home/me/src/linkpeek/editors/emacs/"))
    (should (equal (length (linkpeek--places)) 4)))
  ;; Installed from the tarball: found beside the package with nothing on exec-path.
  (let* ((prefix (make-temp-file "linkpeek-prefix-" t))
         (bin (expand-file-name "bin/linkpeek" prefix))
         (linkpeek--package-directory (expand-file-name "share/linkpeek/editors/emacs/" prefix))
         (linkpeek-binary nil) (exec-path nil))
    (make-directory (file-name-directory bin) t)
    (copy-file (getenv "LINKPEEK_BIN") bin)
    (set-file-modes bin #o755)
    (cl-letf (((symbol-function 'file-executable-p)
               (let ((real (symbol-function 'file-executable-p)))
                 (lambda (f) (and (string-prefix-p prefix f) (funcall real f))))))
      (should (equal (linkpeek-find-binary) bin))
      ;; "linkpeek", the old default, looks there too.
      (let ((linkpeek-binary "linkpeek"))
        (should (equal (linkpeek-find-binary) bin))))
    (delete-directory prefix t)))

(ert-deftest linkpeek-doctor-reports ()
  "The doctor names the binary, its version and that the daemon answers."
  (let ((lines (split-string (linkpeek-doctor) "\n")))
    (should (equal (nth 0 lines) (concat "binary: " (expand-file-name linkpeek-binary) " (linkpeek-binary)")))
    (should (string-match-p "\\`version: [0-9]+\\.[0-9]+" (nth 1 lines)))
    (should (string-match-p "\\`the daemon answers (pid [0-9]+)\\'" (nth 2 lines)))))

(ert-deftest linkpeek-error-sentences ()
  "Failure reasons as sentences a user can act on."
  ;; The daemon's hint (its own names for the setting) gives way to linkpeek.el's.
  (should (equal (linkpeek-error-text '(:code -32000 :message "Metadata fetch failed: refused to connect to 10.0.0.1, a loopback, private or reserved address; the allowPrivateNetwork setting (initializationOptions.allowPrivateNetwork, --allow-private-network) allows it."
                                              :data (:kind "failed" :reason "blockedAddress")))
                 "linkpeek: Metadata fetch failed: refused to connect to 10.0.0.1, a loopback, private or reserved address; to read loopback and intranet pages, set `linkpeek-allow-private-network' to t"))
  (should (equal (linkpeek-error-text '(:code -32000 :message "blocked: private address" :data (:kind "failed" :reason "blockedAddress")))
                 "linkpeek: blocked: private address; to read loopback and intranet pages, set `linkpeek-allow-private-network' to t"))
  (should (equal (linkpeek-error-text '(:code -32000 :message "blocked: the site asked for cookie consent before showing the page"
                                              :data (:kind "failed" :reason "blocked" :wall "consent")))
                 "linkpeek: blocked: the site asked for cookie consent before showing the page"))
  (should (equal (linkpeek-error-text '(:code -32000 :data (:kind "failed" :reason "blocked" :wall "login")))
                 "linkpeek: blocked: the site asked for a login before showing the page"))
  (should (equal (linkpeek-error-text '(:code -32000 :message "x" :data (:kind "failed" :reason "rateLimited" :retryAfter 90)))
                 "linkpeek: the site is limiting requests; try again in 90 s"))
  (should (equal (linkpeek-error-text '(:code -32000 :message "x" :data (:kind "failed" :reason "rateLimited" :retryAfter 600)))
                 "linkpeek: the site is limiting requests; try again in 10 min"))
  (should (equal (linkpeek-error-text '(:code -32000 :message "HTTP 404" :data (:kind "failed" :reason "httpStatus")))
                 "linkpeek: HTTP 404")))

(ert-deftest linkpeek-private-address-hint ()
  "A daemon that refuses loopback: the preview's failure names the setting."
  (linkpeek-shutdown)
  (let ((linkpeek-allow-private-network nil))
    (unwind-protect
        (let ((done (car (last (linkpeek-test-preview (concat linkpeek-test-base "/page?title=Private"))))))
          (should (eq (car done) 'error))
          ;; One hint, naming linkpeek.el's option.
          (should (equal (car (last (nth 1 done)))
                         "linkpeek: Metadata fetch failed: refused to connect to 127.0.0.1, a loopback, private or reserved address; to read loopback and intranet pages, set `linkpeek-allow-private-network' to t")))
      (linkpeek-shutdown))))

(ert-deftest linkpeek-saved-list-opens-the-choice ()
  "M-x linkpeek-saved lists the saved links and opens the chosen one."
  (let ((url (concat linkpeek-test-base "/page?title=Listed+Page")) (opened nil) (offered nil) (messages nil))
    (cl-letf (((symbol-function 'message) (lambda (fmt &rest args) (push (apply #'format fmt args) messages))))
      (linkpeek-save-at-point url)
      (linkpeek-test-wait 5 "the save" messages))
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt choices &rest _) (setq offered choices) (car choices))))
      (let ((linkpeek-open-function (lambda (u) (push u opened))))
        (linkpeek-saved)
        (linkpeek-test-wait 5 "the saved link to open" opened)))
    (should (equal (car offered) (concat "Listed Page — " url)))
    (should (equal opened (list url)))))

(ert-deftest linkpeek-open-failure-is-a-message ()
  "An opener that fails (no xdg-open) gives one message, no error."
  (let ((messages nil)
        (linkpeek-open-function (lambda (_) (error "No usable browser found"))))
    (cl-letf (((symbol-function 'message) (lambda (fmt &rest args) (push (apply #'format fmt args) messages))))
      (linkpeek--open "https://a.example/x"))
    (should (equal messages '("linkpeek: cannot open https://a.example/x: No usable browser found")))))

(ert-deftest linkpeek-card-without-images ()
  "With `linkpeek-hover-images' off the card has no image line."
  (let ((meta '(:title "T" :image (:url "https://a.example/i.png" :width 4 :height 2 :bytes 10))))
    (should (equal (linkpeek-card-lines "https://a.example/" meta nil) '("T" "a.example")))
    (should (equal (linkpeek-card-lines "https://a.example/" meta nil t)
                   '("T" "a.example" "image: https://a.example/i.png (4×2)")))))

(ert-deftest linkpeek-card-unverified-image ()
  "An image linkpeek never verified (404 here) gives no image line."
  (let ((done (car (last (linkpeek-test-preview (concat linkpeek-test-base "/badimage"))))))
    (should (eq (car done) 'done))
    (should (equal (nth 1 done) (list "Bad Image Page" (linkpeek-test-host)))))
  (should (equal (linkpeek-card-lines "https://a.example/" '(:title "T" :image (:url "https://a.example/i.png")) nil t)
                 '("T" "a.example"))))

(ert-deftest linkpeek-preview-bot-check ()
  "A site that shows a bot check instead of the page: the card says so."
  (let ((done (car (last (linkpeek-test-preview (concat linkpeek-test-base "/challenge?editor=emacs"))))))
    (should (eq (car done) 'error))
    (should (equal (car (last (nth 1 done)))
                   "linkpeek: Metadata fetch failed: the site answered with a bot check (a challenge page) instead of the page."))))

(ert-deftest linkpeek-card-site-line-as-the-daemon-makes-it ()
  "A site engine's `site' gives one line under the site, in the daemon's words."
  (should (equal (linkpeek-card-lines "https://github.com/o/r/pull/4123"
                                      '(:title "Fix it" :siteName "GitHub"
                                        :site (:engine "github" :kind "pullRequest" :state "merged" :number 4123
                                               :comments 12 :labels ["bug" "performance"]))
                                      nil)
                 '("Fix it" "GitHub · github.com" "merged · #4123 · 12 comments · bug, performance")))
  (dolist (c '(((:kind "question" :accepted t :score 231 :answers 14 :tags ["c++"]) "✓ accepted · score 231 · 14 answers · c++")
               ((:kind "answer" :accepted :json-false :score 1 :answers 1) "score 1 · 1 answer")
               ((:kind "package" :version "2.3.1" :license "MIT" :createdAt "2026-01-05T10:00:00Z") "v2.3.1 · MIT · 2026-01-05")
               ((:kind "repository" :stars 5 :language "Swift" :latestRelease "v1.0") "★ 5 · Swift · latest v1.0")
               ((:kind "commit" :version "abc1234" :createdAt "2026-01-05T10:00:00Z" :checks "failure")
                "commit abc1234 · 2026-01-05 · ✗ checks failed")
               ((:kind "paper" :category "cs.CL" :authors ["A" "B"] :createdAt "2017-06-12T00:00:00Z")
                "cs.CL · 2 authors · submitted 2017-06-12")
               ((:kind "issue" :state "open\n\e[31mred" :number 1.5) "open [31mred")
               ((:kind "issue") nil)
               ("merged" nil)))
    (should (equal (list (car c) (linkpeek-card-site-line (car c))) (list (car c) (cadr c)))))
  ;; The echo area's card: the facts line after title and site.
  (should (equal (linkpeek-card-echo "https://www.npmjs.com/package/p"
                                     '(:title "p" :siteName "npm" :summary "S" :site (:kind "package" :version "1.0.0"))
                                     nil 60)
                 "p\nnpm · www.npmjs.com\nv1.0.0\nS")))

(ert-deftest linkpeek-card-host-as-the-daemon-shows-it ()
  "Lowercased, the port unless the scheme's default, no user name."
  (dolist (c '(("https://Example.COM:443/x" "example.com")
               ("http://example.com:80/" "example.com")
               ("http://127.0.0.1:8080/p" "127.0.0.1:8080")
               ("https://example.com:80/" "example.com:80")
               ("https://user:secret@Example.com/x" "example.com")
               ("http://[::1]:8080/" "[::1]:8080")
               ("http://[::1]/" "[::1]")))
    (should (equal (linkpeek-card-host (car c)) (cadr c))))
  (should (null (linkpeek-card-host "not a url"))))

(ert-deftest linkpeek-preview-rate-limited ()
  "A site that asks to slow down (429, Retry-After: 90): the card says when to try again.
In a daemon of its own: the 429 holds the fixture's host for 90 s."
  (linkpeek-shutdown)
  (unwind-protect
      (let ((done (car (last (linkpeek-test-preview (concat linkpeek-test-base "/slowdown"))))))
        (should (eq (car done) 'error))
        (should (equal (car (last (nth 1 done))) "linkpeek: the site is limiting requests; try again in 90 s")))
    (linkpeek-shutdown)))

(ert-deftest linkpeek-stage-labels ()
  "Progress stages in words, the new `waiting' one too."
  (should (equal (linkpeek--progress-status '(:kind "report" :stage "waiting" :bytes 0)) "loading… waiting for the server"))
  (should (equal (linkpeek--progress-status '(:kind "report" :stage "downloading" :bytes 512))
                 "loading… downloading the page, 512 bytes"))
  (should (equal (linkpeek--progress-status '(:kind "report" :stage "resolving")) "loading… looking up the host"))
  (should (equal (linkpeek--progress-status '(:kind "report" :stage "rendering")) "loading… rendering")))

(ert-deftest linkpeek-preview-waiting-for-the-server ()
  "A server that thinks: the *linkpeek* card says it is waiting for it."
  (let* ((seen (linkpeek-test-preview (concat linkpeek-test-base "/slow?ms=2500&title=Thinking")))
         (statuses (mapcar (lambda (s) (car (last (nth 1 s)))) seen)))
    (should (eq (car (car (last seen))) 'done))
    (should (member "loading… waiting for the server" statuses))))

(ert-deftest linkpeek-asks-for-plain-text-cards ()
  "linkpeek.el's `initialize' asks for plain-text hover cards: no Markdown."
  (let* ((conn (linkpeek--connection))
         (url (concat linkpeek-test-base "/page?title=Plain+Card"))
         (uri "untitled:linkpeek-plain-card"))
    (jsonrpc-notify conn :textDocument/didOpen
                    (list :textDocument (list :uri uri :languageId "text" :version 1 :text url)))
    (let ((hover (jsonrpc-request conn :textDocument/hover
                                  (list :textDocument (list :uri uri) :position '(:line 0 :character 3))
                                  :timeout 10)))
      (jsonrpc-notify conn :textDocument/didClose (list :textDocument (list :uri uri)))
      (should (equal (plist-get (plist-get hover :contents) :kind) "plaintext"))
      (should (equal (split-string (plist-get (plist-get hover :contents) :value) "\n")
                     (list "Plain Card" (concat "Fixture Site · " (linkpeek-test-host))
                           "An Open Graph description."))))))

;;; Site engines

(ert-deftest linkpeek-site-engines-facts-line ()
  "Each site link's card has the engine's facts line under the site, in *linkpeek* and in eldoc.
Tests/editors/editor_sites.py serves the APIs and names the cases (URL TITLE FACTS)."
  (let ((cases (json-parse-string (or (getenv "LINKPEEK_SITE_CASES") (error "LINKPEEK_SITE_CASES not set"))
                                  :array-type 'list)))
    (should (>= (length cases) 3))
    (dolist (case cases)
      (let* ((url (nth 0 case)) (title (nth 1 case)) (facts (nth 2 case))
             (lines (nth 1 (car (last (linkpeek-test-preview url))))))
        (should (equal (list url (car lines)) (list url title)))
        (should (equal (list url (nth 2 lines)) (list url facts)))
        ;; The echo area's card (the fetch is cached now): title, site, facts.
        (let ((doc (nth 1 (linkpeek-test-eldoc url 3))))
          (should (equal (list url (seq-take (split-string doc "\n") 3))
                         (list url (list title (nth 1 lines) facts)))))))))

;;; linkpeek-tests.el ends here
