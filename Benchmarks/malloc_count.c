/* Counts a process's heap allocations, for bench_fetch.py --count-allocations.
 *
 *   cc -shared -fPIC -O2 -o malloc_count.so Benchmarks/malloc_count.c
 *   LD_PRELOAD=./malloc_count.so MALLOC_COUNT_OUT=/tmp/n program ...
 *
 * malloc, calloc, realloc, posix_memalign, aligned_alloc and memalign are
 * passed to glibc's own entry points (__libc_*: no dlsym, so no allocation
 * inside the allocator) and counted with relaxed atomics; at exit the counts
 * are written to $MALLOC_COUNT_OUT as "calls bytes".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_ulong calls, bytes;

static void count(size_t n) {
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&bytes, n, memory_order_relaxed);
}

void *malloc(size_t n) { count(n); return __libc_malloc(n); }
void *calloc(size_t k, size_t n) { count(k * n); return __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { count(n); return __libc_realloc(p, n); }
void *memalign(size_t a, size_t n) { count(n); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { count(n); return __libc_memalign(a, n); }

int posix_memalign(void **out, size_t a, size_t n) {
    count(n);
    void *p = __libc_memalign(a, n);
    if (p == NULL) return ENOMEM;
    *out = p;
    return 0;
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("MALLOC_COUNT_OUT");
    if (path == NULL) return;
    FILE *f = fopen(path, "w");
    if (f == NULL) return;
    fprintf(f, "%lu %lu\n", atomic_load(&calls), atomic_load(&bytes));
    fclose(f);
}
