/* fuzz_aptsources.c: the host's apt sources (one-line sources.list entries
 * and deb822 .sources stanzas) through aptsources.c, then the mirror lookup
 * and the formatting that the image build uses. The first byte picks the
 * format. */
#include "image/aptsources.h"
#include "fuzz.h"

FUZZ_INITIALIZE_QUIET

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static struct apt_sources s; /* 22 KiB: not on the stack */
    apt_sources_parse((const char *)data + 1, size - 1, data[0] & 1, "bookworm", &s);
    apt_sources_mirror(&s, "bookworm");
    apt_sources_override_mirror(&s, "bookworm", "http://mirror.example/debian");
    char buf[4096];
    apt_sources_format(&s, buf, sizeof(buf));
    return 0;
}
