/* fuzz_recipe.c: a guest image recipe through recipe_load (`vbed image
 * build --recipe DIR` reads any directory's recipe.ini): every section and
 * key, the lists, [build] run's command words, sizes, and the image id
 * made from a loaded recipe. recipe_load reads a file: the input is written
 * as recipe.ini of a private directory (no files/ beside it), removed at
 * exit. */
#include "image/recipe.h"
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

FUZZ_INITIALIZE_QUIET

static char dir[64], path[96];

static void remove_dir(void)
{
    unlink(path);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof(dir), "/tmp/vbed-fuzz-recipe-XXXXXX");
        if (!mkdtemp(dir))
            abort();
        snprintf(path, sizeof(path), "%s/recipe.ini", dir);
        atexit(remove_dir);
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    struct recipe *r = recipe_load(dir);
    if (r) {
        /* what a loaded recipe promises: every run item an absolute program */
        for (size_t i = 0; i < r->run.n; i++)
            if (r->run.v[i][0] != '/')
                abort();
        char id[160];
        recipe_image_id(r, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", id,
                        sizeof(id));
        recipe_free(r);
    }
    return 0;
}
