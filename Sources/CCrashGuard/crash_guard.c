#include "CCrashGuard.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Long enough for a backtrace of a small process, short enough for a supervisor. */
#define LINKPEEK_CRASH_EXIT_SECONDS 10

static const int crash_signals[] = { SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP, SIGABRT };
#define CRASH_SIGNAL_COUNT (sizeof(crash_signals) / sizeof(crash_signals[0]))

static struct sigaction previous[CRASH_SIGNAL_COUNT];
static volatile sig_atomic_t guarded_fd = -1;

static void on_crash(int signo, siginfo_t *info, void *context) {
    int fd = guarded_fd;
    if (fd >= 0) {
        guarded_fd = -1;
        close(fd);  /* async-signal-safe */
    }
    /* The runtime's backtracer keeps the crashed process alive while it
       works, and was seen stuck for many minutes: SIGALRM's default action
       ends the process after a bound, whatever the backtracer is doing. */
    signal(SIGALRM, SIG_DFL);
    alarm(LINKPEEK_CRASH_EXIT_SECONDS);
    for (unsigned i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        if (crash_signals[i] != signo) continue;
        struct sigaction *old = &previous[i];
        if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
            old->sa_sigaction(signo, info, context);
            return;
        }
        if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN && old->sa_handler) {
            old->sa_handler(signo);
            return;
        }
        /* No handler before ours: the default action, on return from here
           for a fault (the instruction runs again), by raising otherwise. */
        signal(signo, SIG_DFL);
        if (info == NULL || info->si_code <= 0) raise(signo);
        return;
    }
}

int linkpeek_close_on_crash(int fd) {
    guarded_fd = fd;
    int result = 0;
    for (unsigned i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_crash;
        sigemptyset(&action.sa_mask);
        /* SA_ONSTACK: a stack overflow must still reach the handler, on the
           alternate stack the runtime set up (if any). */
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        if (sigaction(crash_signals[i], &action, &previous[i]) != 0) result = -1;
    }
    return result;
}
