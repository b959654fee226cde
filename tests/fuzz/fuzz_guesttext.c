/* fuzz_guesttext.c: what a guest says, as vbed reads it (the guest's root
 * may write anything): the first byte picks the reader.
 *   0  the mariadb client's --batch output through sql_rows_from_batch
 *      (every reading from a guest): rows as wide as the first, at most 64
 *      cells and SQL_REMOTE_MAX_ROWS rows, no cell holding a tab or a
 *      newline, no more text than came in; and sql_decimal on each cell
 *   1  vbed-setup's status file through guest_status_parse: what it shows
 *      is one line (tabs aside), bounded and inert on a terminal
 *   2  a console log through accel_console_verdict (the KVM probe's) */
#include "fuzz.h"
#include "virt/accel.h"
#include "virt/guest.h"

#include <math.h>

FUZZ_INITIALIZE_QUIET

static void inert(const char *s, size_t max)
{
    if (strlen(s) > max)
        abort();
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 0x20 && *p != '\t') || *p == 0x7f || (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F))
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    switch (data[0] % 3) {
    case 0: {
        struct sql_result r = {0};
        sql_rows_from_batch(text, len, &r);
        if (r.rows > SQL_REMOTE_MAX_ROWS || (r.rows && (r.cols < 1 || r.cols > SQL_BATCH_MAX_COLS)))
            abort();
        size_t bytes = 0;
        for (size_t i = 0; i < r.rows * r.cols; i++) {
            if (strchr(r.cells[i], '\t') || strchr(r.cells[i], '\n'))
                abort();
            bytes += strlen(r.cells[i]);
            double v;
            if (sql_decimal(r.cells[i], &v) == 0 && !(v >= 0 && isfinite(v)))
                abort();
        }
        if (bytes > len)
            abort();
        sql_result_free(&r);
        break;
    }
    case 1: {
        char shown[GUEST_STATUS_SHOWN];
        enum guest_status st = guest_status_parse(text, len, shown, sizeof(shown));
        inert(shown, sizeof(shown) - 1);
        if (st == GUEST_STATUS_READY && strcmp(shown, "ready") != 0)
            abort();
        break;
    }
    default: {
        char *t = fuzz_text((const uint8_t *)text, len);
        enum accel_verdict v = accel_console_verdict(t);
        if (v != ACCEL_KVM_WORKS && v != ACCEL_TCG_ONLY)
            abort();
        free(t);
        break;
    }
    }
    return 0;
}
