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
  "Run BODY in a text buffer holding TEXT with point at COLUMN."
  (declare (indent 2))
  `(with-temp-buffer
     (insert ,text)
     (goto-char (+ (line-beginning-position) ,column))
     ,@body))

(defun linkpeek-test-preview (url)
  "Preview URL; return the updates (PHASE LINES TIME) in order, once done."
  (let ((seen nil))
    (let ((linkpeek-preview-update-functions
           (list (lambda (phase lines) (push (list phase lines (float-time)) seen)))))
      (linkpeek-preview-at-point url)
      (linkpeek-test-wait 10 "the preview to finish" (memq (car (car seen)) '(done error))))
    (nreverse seen)))

(defun linkpeek-test-eldoc (text column)
  "Run the eldoc function on TEXT at COLUMN; return (RETURNED DOC SECONDS)."
  (linkpeek-test-with-line text column
    (let* ((doc nil) (started (float-time))
           (returned (linkpeek-eldoc-function (lambda (d &rest _) (setq doc d)))))
      (when returned
        (linkpeek-test-wait 5 "the eldoc answer" doc))
      (list returned doc (- (float-time) started)))))

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
    (should (equal (nth 1 partial) (list "Slow Image Page" (concat "Fixture Site · " (linkpeek-test-host))
                                         "The head is quick; the image is not."
                                         (concat "image: " linkpeek-test-base "/img-slow?ms=1500")
                                         "loading…")))
    (should (eq (car done) 'done))
    (should (>= (- (nth 2 done) (nth 2 partial)) 1.0))
    (should (equal (car (last (nth 1 done)))
                   (concat "image: " linkpeek-test-base "/img-slow?ms=1500 (40×20)")))
    (should (equal (with-current-buffer "*linkpeek*" (buffer-string))
                   (concat (string-join (nth 1 done) "\n") "\n")))))

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
  "A slow page answers within the budget with what is known; later, the whole card."
  (let* ((url (concat linkpeek-test-base "/slow?ms=2500&title=Slowly+Done"))
         (first (linkpeek-test-eldoc url 3)))
    (should (< (nth 2 first) 1.7))
    (should (equal (nth 1 first) (concat (linkpeek-test-host) "\nloading…")))
    (let ((deadline (+ (float-time) 2.5)))
      (while (< (float-time) deadline) (accept-process-output nil 0.05)))
    (should (string-prefix-p "Slowly Done\n" (nth 1 (linkpeek-test-eldoc url 3))))))

(ert-deftest linkpeek-cancel-keeps-emacs-responsive ()
  "Cancelling a loading preview cancels its fetch (-32800); the next preview works at once."
  (linkpeek-preview-at-point (concat linkpeek-test-base "/slow?ms=8000&title=Never"))
  (let ((preview linkpeek--preview) (started (float-time)))
    (accept-process-output nil 0.2)
    (linkpeek-cancel-preview)
    (should (null linkpeek--preview))
    (linkpeek-test-wait 2 "the cancelled fetch's answer" (plist-get preview :error-code))
    (should (eql (plist-get preview :error-code) -32800))
    (should (< (- (float-time) started) 1.5)))
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

;;; linkpeek-tests.el ends here
