/* fuzz_saveimage.c: the header of a libvirt save image (virt/saveimage.c)
 * through saveimage_parse, and the XML it finds through
 * saveimage_rename_xml: the cache's saved ready guests are files vbed reads
 * back, and a damaged one must be refused, never overrun. */
#include "fuzz.h"
#include "virt/saveimage.h"

FUZZ_INITIALIZE_QUIET

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *xml = NULL, *cookie = NULL, why[256];
    unsigned dlen = 0;
    if (saveimage_parse(data, size, &xml, &cookie, &dlen, why, sizeof(why)) == 0) {
        if (dlen == 0 || dlen > size)
            abort();
        char *renamed = saveimage_rename_xml(xml, "vbed-fuzz-001-guest-1",
                                             "f3cb64b5-ee23-4695-a1d4-3483d9b8e325", why, sizeof(why));
        free(renamed);
    }
    free(xml);
    free(cookie);
    return 0;
}
