/* fuzz_agent.c: a guest agent's reply (JSON text from the guest) through
 * the guest-exec-status, guest-file-read and guest-file-write decoders and
 * base64 (agent.c). The first byte picks the decoder. */
#include "virt/agent.h"
#include "fuzz.h"

FUZZ_INITIALIZE_QUIET

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = fuzz_text(data + 1, size - 1);
    switch (data[0] % 4) {
    case 0: {
        struct agent_result r;
        bool exited;
        if (agent_decode_exec_status(text, &exited, &r) == 0)
            agent_result_free(&r);
        break;
    }
    case 1: {
        char *chunk = NULL;
        size_t len;
        bool eof;
        agent_decode_file_read(text, &chunk, &len, &eof);
        free(chunk);
        break;
    }
    case 2: {
        size_t count;
        agent_decode_file_write(text, &count);
        break;
    }
    default: {
        char *out = NULL;
        size_t len;
        agent_base64_decode((const char *)data + 1, size - 1, &out, &len);
        free(out);
        break;
    }
    }
    free(text);
    return 0;
}
