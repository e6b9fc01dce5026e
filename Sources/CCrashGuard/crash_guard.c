#define _GNU_SOURCE  /* struct dirent64 */
#include "CCrashGuard.h"

#include <dirent.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif
#include <unistd.h>

/* Long enough for a backtrace of a small process, short enough for a supervisor. */
#define LINKPEEK_CRASH_EXIT_SECONDS 10

static const int crash_signals[] = { SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP, SIGABRT };
#define CRASH_SIGNAL_COUNT (sizeof(crash_signals) / sizeof(crash_signals[0]))

static struct sigaction previous[CRASH_SIGNAL_COUNT];
static volatile sig_atomic_t guarded_fd = -1;
/* Whether the Swift runtime's backtracer gets the crash: only when the user
   asked for it by setting SWIFT_BACKTRACE. Decided at install time, since
   getenv is not async-signal-safe. */
static int use_runtime_backtracer = 0;

#define MAX_FRAMES 64

static void write_text(const char *text) {
    size_t left = strlen(text);
    while (left > 0) {
        ssize_t n = write(STDERR_FILENO, text, left);
        if (n <= 0) return;
        text += n;
        left -= (size_t)n;
    }
}

static const char *signal_name(int signo) {
    switch (signo) {
    case SIGILL: return "SIGILL (a Swift runtime trap, or an illegal instruction)";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGTRAP: return "SIGTRAP";
    case SIGABRT: return "SIGABRT";
    default: return "a crash signal";
    }
}

/* The runtime's backtracer is a child process (swift-backtrace) that
   inspects the crashed one over a socket; when the crashed process is ended
   before it finishes (by the alarm below, or by a supervisor), it is left
   behind, re-parented to init and blocked forever. So by default the report
   is written here, in the crashed process, with glibc's backtrace(): the
   raw return addresses and the nearest exported symbols (mangled; `swift
   demangle` reads them), and no process is spawned. */
static void write_in_process_backtrace(int signo) {
    void *frames[MAX_FRAMES];
    write_text("linkpeek: crashed with ");
    write_text(signal_name(signo));
    write_text("; backtrace of the crashing thread (set SWIFT_BACKTRACE to get the Swift runtime's backtracer instead):\n");
    int count = backtrace(frames, MAX_FRAMES);
    backtrace_symbols_fd(frames, count, STDERR_FILENO);
}

/* Sends SIGKILL to every child of this process: the runtime's backtracer,
   when the bound below ends the crashed process before it is done. Found
   through /proc/self/task/<tid>/children with open, getdents64 and read
   (opendir and readdir are not async-signal-safe). */
static void kill_children(void) {
#ifdef __linux__
    int tasks = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (tasks < 0) return;
    char entries[4096];
    long count;
    while ((count = syscall(SYS_getdents64, tasks, entries, sizeof entries)) > 0) {
        for (long offset = 0; offset < count;) {
            struct dirent64 *entry = (struct dirent64 *)(entries + offset);
            offset += entry->d_reclen;
            if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
            char path[64] = "/proc/self/task/";
            size_t used = strlen(path);
            size_t name = strlen(entry->d_name);
            if (used + name + sizeof "/children" > sizeof path) continue;
            memcpy(path + used, entry->d_name, name);
            memcpy(path + used + name, "/children", sizeof "/children");
            int children = open(path, O_RDONLY | O_CLOEXEC);
            if (children < 0) continue;
            char text[512];
            ssize_t n = read(children, text, sizeof text - 1);
            close(children);
            pid_t pid = 0;
            for (ssize_t k = 0; k < (n > 0 ? n : 0); k++) {
                if (text[k] >= '0' && text[k] <= '9') {
                    pid = pid * 10 + (text[k] - '0');
                } else {
                    if (pid > 0) kill(pid, SIGKILL);
                    pid = 0;
                }
            }
            if (pid > 0) kill(pid, SIGKILL);
        }
    }
    close(tasks);
#endif
}

static volatile sig_atomic_t crash_signal = 0;

/* The bound on the runtime's backtracer: the crashed process ends with its
   crash signal, and takes the backtracer with it. Without the kill the
   backtracer outlived it, blocked forever on the memory server it reads the
   crashed process through (it holds that socket's other end too, so it
   never reads end-of-file). */
static void on_deadline(int signo) {
    (void)signo;
    kill_children();
    int crashed = crash_signal ? crash_signal : SIGKILL;
    signal(crashed, SIG_DFL);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, crashed);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    raise(crashed);
    _exit(128 + crashed);
}

static void on_crash(int signo, siginfo_t *info, void *context) {
    int fd = guarded_fd;
    if (fd >= 0) {
        guarded_fd = -1;
        close(fd);  /* async-signal-safe */
    }
    crash_signal = signo;
    /* The runtime's backtracer keeps the crashed process alive while it
       works, and was seen stuck for many minutes: the process ends after a
       bound, whatever the backtracer is doing, and the backtracer with it. */
    signal(SIGALRM, on_deadline);
    alarm(LINKPEEK_CRASH_EXIT_SECONDS);
    if (!use_runtime_backtracer) write_in_process_backtrace(signo);
    for (unsigned i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        if (crash_signals[i] != signo) continue;
        struct sigaction *old = &previous[i];
        if (!use_runtime_backtracer) {
            signal(signo, SIG_DFL);
            if (info == NULL || info->si_code <= 0) raise(signo);
            return;
        }
        /* The runtime's handler expects what it installs itself: the crash
           signals unblocked while it runs (SA_NODEFER). Its memory server
           is a thread cloned from this one, inheriting this mask, that
           catches its own SIGSEGV on a bad read; with SIGSEGV blocked here
           (a segfault's handler without SA_NODEFER) the kernel killed the
           process at the first bad read instead, mid-backtrace, and the
           backtracer was left blocked. SIGALRM too, for the bound. */
        sigset_t unblock;
        sigemptyset(&unblock);
        for (unsigned k = 0; k < CRASH_SIGNAL_COUNT; k++) sigaddset(&unblock, crash_signals[k]);
        sigaddset(&unblock, SIGALRM);
        sigprocmask(SIG_UNBLOCK, &unblock, NULL);
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
    use_runtime_backtracer = getenv("SWIFT_BACKTRACE") != NULL;
    if (!use_runtime_backtracer) {
        /* The first backtrace() loads libgcc's unwinder (dlopen, malloc):
           done here, so that the call in the handler does neither. */
        void *frame[1];
        (void)backtrace(frame, 1);
    }
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
