/* The floor of a head reader: the least that any reader of a page's head must
 * do with the bytes a server sends, done with the same libraries linkpeek
 * uses (zlib and libxml2), and its CPU per page.
 *
 *     cc -O2 -I/usr/include/libxml2 -o floor floor.c -lxml2 -lz
 *     floor LIST
 *
 * LIST has one page a line: "FILE GZIP LIMIT". FILE holds the page as the
 * server sends it (gzip-encoded when GZIP is 1). Each page is inflated in
 * 16 KiB pieces and handed to libxml2's HTML push parser with a SAX
 * start-element handler only (no tree), until LIMIT decoded bytes, or with
 * LIMIT 0 until the first `</head` or `<body` (the head alone). Every file
 * is read into memory first; only the inflating and parsing are timed
 * (CLOCK_PROCESS_CPUTIME_ID). Prints one line: pages, CPU ms per page,
 * decoded bytes per page, elements seen per page.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include <libxml/HTMLparser.h>

#define PIECE 16384

struct page { unsigned char *data; size_t size; int gzip; size_t limit; };

static long elements;

static void start_element(void *ctx, const xmlChar *name, const xmlChar **atts) {
    (void)ctx; (void)name; (void)atts;
    elements++;
}

/* The end of the first `</head` or `<body` in `p[0..n)`, in any case; 0 if none. */
static size_t head_end(const unsigned char *p, size_t n) {
    for (size_t i = 0; i + 6 < n; i++) {
        if (p[i] != '<') continue;
        if (strncasecmp((const char *)p + i, "</head", 6) == 0) return i + 6;
        if (strncasecmp((const char *)p + i, "<body", 5) == 0) return i + 5;
    }
    return 0;
}

/* Feeds `n` decoded bytes; returns 1 once the page's limit is reached. */
static int feed(htmlParserCtxtPtr ctxt, const unsigned char *p, size_t n, struct page *pg, size_t *done,
                unsigned char *tail, size_t *tail_len) {
    size_t take = n;
    int stop = 0;
    if (pg->limit == 0) {
        /* Search this piece with the last bytes of the previous one before it. */
        unsigned char joint[PIECE + 8];
        memcpy(joint, tail, *tail_len);
        memcpy(joint + *tail_len, p, n);
        size_t end = head_end(joint, *tail_len + n);
        if (end) {
            take = end > *tail_len ? end - *tail_len : 0;
            stop = 1;
        }
        size_t keep = (*tail_len + n) < 7 ? *tail_len + n : 7;
        memmove(tail, joint + *tail_len + n - keep, keep);
        *tail_len = keep;
    } else if (*done + n >= pg->limit) {
        take = pg->limit - *done;
        stop = 1;
    }
    if (take) htmlParseChunk(ctxt, (const char *)p, (int)take, 0);
    *done += take;
    return stop;
}

static size_t run(struct page *pg, htmlSAXHandler *sax) {
    htmlParserCtxtPtr ctxt = htmlCreatePushParserCtxt(sax, NULL, NULL, 0, NULL, XML_CHAR_ENCODING_NONE);
    htmlCtxtUseOptions(ctxt, HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
    size_t done = 0, tail_len = 0;
    unsigned char tail[8];
    if (pg->gzip) {
        z_stream z;
        memset(&z, 0, sizeof z);
        inflateInit2(&z, 15 + 16);
        unsigned char out[PIECE];
        z.next_in = pg->data;
        z.avail_in = (uInt)pg->size;
        int status = Z_OK;
        while (status == Z_OK) {
            z.next_out = out;
            z.avail_out = PIECE;
            status = inflate(&z, Z_NO_FLUSH);
            size_t got = PIECE - z.avail_out;
            if (got == 0 && status != Z_STREAM_END) break;
            if (feed(ctxt, out, got, pg, &done, tail, &tail_len)) break;
        }
        inflateEnd(&z);
    } else {
        for (size_t at = 0; at < pg->size; at += PIECE) {
            size_t n = pg->size - at < PIECE ? pg->size - at : PIECE;
            if (feed(ctxt, pg->data + at, n, pg, &done, tail, &tail_len)) break;
        }
    }
    htmlParseChunk(ctxt, NULL, 0, 1);
    htmlFreeParserCtxt(ctxt);
    return done;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: floor LIST (lines of: FILE GZIP LIMIT)\n");
        return 2;
    }
    FILE *list = fopen(argv[1], "r");
    if (!list) { perror(argv[1]); return 2; }
    size_t count = 0, capacity = 1024;
    struct page *pages = malloc(capacity * sizeof *pages);
    char path[4096];
    int gzip;
    size_t limit;
    while (fscanf(list, "%4095s %d %zu", path, &gzip, &limit) == 3) {
        FILE *f = fopen(path, "rb");
        if (!f) { perror(path); return 2; }
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, 0, SEEK_SET);
        if (count == capacity) pages = realloc(pages, (capacity *= 2) * sizeof *pages);
        pages[count].data = malloc(size > 0 ? (size_t)size : 1);
        pages[count].size = fread(pages[count].data, 1, (size_t)size, f);
        pages[count].gzip = gzip;
        pages[count].limit = limit;
        fclose(f);
        count++;
    }
    fclose(list);
    if (count == 0) { fprintf(stderr, "no pages\n"); return 2; }
    xmlInitParser();
    htmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.startElement = start_element;
    double start = cpu_seconds();
    size_t decoded = 0;
    for (size_t i = 0; i < count; i++) decoded += run(&pages[i], &sax);
    double cpu = cpu_seconds() - start;
    printf("%zu pages, %.3f ms/page, %zu bytes/page, %ld elements/page\n", count, cpu * 1000 / count,
           decoded / count, elements / (long)count);
    return 0;
}
