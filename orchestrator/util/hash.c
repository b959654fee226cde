/* hash.c: SHA-256 through OpenSSL's EVP interface. */
#include "util/hash.h"
#include "util/xalloc.h"

#include "util/log.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hasher {
    EVP_MD_CTX *ctx;
};

struct hasher *hasher_new(void)
{
    struct hasher *h = xcalloc(1, sizeof(*h));
    if (!h || !(h->ctx = EVP_MD_CTX_new()) || EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL) != 1)
        abort();
    return h;
}

void hasher_add(struct hasher *h, const void *data, size_t len)
{
    EVP_DigestUpdate(h->ctx, data, len);
}

void hasher_addf(struct hasher *h, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (n > 0)
        hasher_add(h, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

int hasher_add_file(struct hasher *h, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        log_error("Cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        hasher_add(h, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        log_error("Cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

void hasher_final(struct hasher *h, char hex[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_DigestFinal_ex(h->ctx, md, &len);
    for (unsigned i = 0; i < len && i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    hex[64] = '\0';
    hasher_free(h);
}

void hasher_free(struct hasher *h)
{
    if (!h)
        return;
    EVP_MD_CTX_free(h->ctx);
    free(h);
}
