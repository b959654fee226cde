/* textfile.h: whole small files in and out (scenarios, recipes, my.cnf,
 * sysbench outputs, control files), and a text's lines one by one. Writes
 * report their failure once with the path; reads leave that to the caller,
 * who knows what the file is. */
#ifndef VBED_TEXTFILE_H
#define VBED_TEXTFILE_H

#include <stddef.h>

/* The whole file, NUL-terminated (malloc'd); NULL with errno set on
 * failure, errno = EINVAL if it holds NUL bytes. */
char *textfile_read(const char *path);
/* Write len bytes to path (created or truncated, mode 0644). -1 reported. */
int textfile_write(const char *path, const char *data, size_t len);
/* The same for a NUL-terminated text. */
int textfile_write_text(const char *path, const char *text);
/* The line at *p into buf (without its newline; a line longer than len - 1
 * bytes is cut, so that a parser rejects it), *p moved past it; -1 at the
 * end of the text. */
int textfile_next_line(const char **p, char *buf, size_t len);

#endif
