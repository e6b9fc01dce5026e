#ifndef LINKPEEK_CCRASHGUARD_H
#define LINKPEEK_CCRASHGUARD_H

/// Closes `fd` as the first thing the process does when it crashes (SIGILL
/// from a Swift trap, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP, SIGABRT), writes a
/// backtrace of the crashing thread to stderr from inside the process, and
/// ends it with the signal's default action. The Swift runtime's backtracer
/// (a child process, `swift-backtrace`, that outlives a crashed process
/// ended before it is done) is used only when SWIFT_BACKTRACE is set: then
/// the signal goes to the handler installed before this one, as it writes
/// its report to fd 1 — stderr in the daemon — with the crash signals
/// unblocked, as that handler expects. Either way the process is gone 10
/// seconds after the crash at the latest, and any child it has (the
/// backtracer) is killed with it.
///
/// Why C: the handler must be async-signal-safe and find the saved handlers
/// in global state; a Swift closure can do neither. Why at all: the crashed
/// process stays alive while the backtracer symbolicates it (once for over
/// ten minutes here), and a client reading the protocol stream would see no
/// end-of-file until then, instead of restarting the daemon at once.
///
/// Call once, after the Swift runtime has installed its handlers (any time
/// in `main`). Returns 0, or -1 when a handler could not be installed.
int linkpeek_close_on_crash(int fd);

#endif
