/* hash.h: SHA-256 (OpenSSL) of what makes up a cache key. */
#ifndef VBED_HASH_H
#define VBED_HASH_H

#include <stddef.h>

struct hasher;

struct hasher *hasher_new(void);
void hasher_add(struct hasher *h, const void *data, size_t len);
void hasher_addf(struct hasher *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The file's bytes; -1 (reported) if it cannot be read. */
int hasher_add_file(struct hasher *h, const char *path);
/* 64 hex digits and a NUL into hex; frees h. */
void hasher_final(struct hasher *h, char hex[65]);
/* Free without a result (error paths). */
void hasher_free(struct hasher *h);

#endif
