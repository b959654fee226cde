/* workloads/archive.h: the fixed archive that tar_extract extracts.
 *
 * Not a snapshot of some machine's files (a guest's and the host's would
 * differ) but a tree generated from a fixed rule, byte for byte the same
 * wherever it is made: ARCHIVE_FILES files in ARCHIVE_DIRS directories,
 * sizes from 4 KiB to 256 KiB and a few bytes more (the mix of a source
 * tree's small files and a package's larger ones), contents from a
 * seeded xorshift generator (incompressible, so no layer below can
 * shortcut it), ustar format, owner 0, mode 0644, mtime 0. `vbed image
 * build` lays it into the image at ARCHIVE_GUEST_PATH; the host arm makes
 * it in its private directory. Its size is recorded with every run
 * (tar_archive_bytes). */
#ifndef VBED_ARCHIVE_H
#define VBED_ARCHIVE_H

#define ARCHIVE_FILES 900
#define ARCHIVE_DIRS 30
#define ARCHIVE_GUEST_PATH "/usr/local/share/vbed/extract.tar"

/* Write the archive to path (created or truncated, never through a
 * symbolic link); its size into *bytes. -1 reported. */
int archive_write_fixed(const char *path, long long *bytes);
/* The same into fd, a new empty file open for writing (path names it in
 * messages); fd stays open. */
int archive_write_fixed_fd(int fd, const char *path, long long *bytes);
/* The bytes of file contents in it (without tar's headers and padding). */
long long archive_content_bytes(void);

#endif
