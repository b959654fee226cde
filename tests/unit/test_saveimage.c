/* test_saveimage.c: a libvirt save image given another name and UUID
 * (virt/saveimage.h): the header read back, the XML renamed, the cookie
 * kept, QEMU's stream untouched byte for byte; and every image it must
 * refuse (another magic, version or format, an XML without its name, one
 * that would not fit) refused with a reason and no file left behind. */
#include "testutil.h"
#include "virt/saveimage.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>

static const char xml[] = "<domain type='qemu'>\n  <name>vbed-ready-0123456789abcdef</name>\n"
                          "  <uuid>99899b35-04ab-4e5a-9abf-e26960cbaf87</uuid>\n</domain>\n";
static const char cookie[] = "<cookie>\n  <slirpHelper/>\n</cookie>\n";

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* header + XML area of data_len (XML, cookie, zeros) + a "stream" */
static size_t make_image(unsigned char *buf, size_t cap, const char *magic, uint32_t version,
                         uint32_t format, uint32_t data_len, const char *x, bool with_cookie)
{
    memset(buf, 0, cap);
    memcpy(buf, magic, 16);
    put32(buf + 16, version);
    put32(buf + 20, data_len);
    put32(buf + 24, 1);
    put32(buf + 28, format);
    size_t xl = strlen(x) + 1;
    memcpy(buf + SAVEIMAGE_HEADER_SIZE, x, xl);
    if (with_cookie) {
        memcpy(buf + SAVEIMAGE_HEADER_SIZE + xl, cookie, sizeof(cookie));
        put32(buf + 32, (uint32_t)xl);
    }
    size_t at = SAVEIMAGE_HEADER_SIZE + data_len;
    for (size_t i = 0; i < 4096 && at + i < cap; i++)
        buf[at + i] = (unsigned char)(i * 7 + 3); /* QEMU's stream, as far as we care */
    return at + 4096;
}

static void write_file(const char *path, const unsigned char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    fclose(f);
}

/* a valid image (4096 bytes of XML area) in a new directory dir (a
 * mkdtemp template): src its path, dst a path beside it; its size */
static size_t image_in_dir(unsigned char *img, size_t cap, char *dir, char src[64], char dst[64])
{
    size_t n = make_image(img, cap, "LibvirtQemudSave", 2, 0, 4096, xml, true);
    assert_non_null(mkdtemp(dir));
    snprintf(src, 64, "%s/a.save", dir);
    snprintf(dst, 64, "%s/b.save", dir);
    write_file(src, img, n);
    return n;
}

/* saveimage_copy_as(src -> dst), asserted; dst's bytes into out, how many */
static size_t copy_and_read(const char *src, const char *dst, const char *name, const char *uuid,
                            unsigned char *out, size_t cap)
{
    assert_int_equal(saveimage_copy_as(src, dst, name, uuid), 0);
    FILE *f = fopen(dst, "rb");
    assert_non_null(f);
    size_t got = fread(out, 1, cap, f);
    fclose(f);
    return got;
}

static void renamed_copy(void **state)
{
    (void)state;
    static unsigned char img[16384], out[16384];
    char dir[] = "/tmp/vbed-saveimage-XXXXXX", src[64], dst[64];
    size_t n = image_in_dir(img, sizeof(img), dir, src, dst);
    const char *name = "vbed-e2etest-001-a-much-longer-arm-name-1", *uuid = "f3cb64b5-ee23-4695-a1d4-3483d9b8e325";
    size_t got = copy_and_read(src, dst, name, uuid, out, sizeof(out));
    assert_int_equal(got, n);
    char *x, *c, why[256];
    unsigned dlen;
    assert_int_equal(saveimage_parse(out, got, &x, &c, &dlen, why, sizeof(why)), 0);
    assert_int_equal(dlen, 4096);
    assert_non_null(strstr(x, "<name>vbed-e2etest-001-a-much-longer-arm-name-1</name>"));
    assert_non_null(strstr(x, "<uuid>f3cb64b5-ee23-4695-a1d4-3483d9b8e325</uuid>"));
    assert_null(strstr(x, "vbed-ready"));
    assert_string_equal(c, cookie);
    /* the header's other words and the stream are the source's */
    assert_memory_equal(out, img, 32);
    assert_memory_equal(out + SAVEIMAGE_HEADER_SIZE + 4096, img + SAVEIMAGE_HEADER_SIZE + 4096, 4096);
    free(x);
    free(c);
    /* the copy exists: another copy to the same place is refused, not overwritten */
    assert_int_equal(saveimage_copy_as(src, dst, name, uuid), -1);
    unlink(src);
    unlink(dst);
    rmdir(dir);
}

/* a remote host's copy: the renamed head, then the source from its end on
 * (what storage_upload_file_head sends) -- the local copy byte for byte */
static void renamed_head(void **state)
{
    (void)state;
    static unsigned char img[16384], out[16384];
    char dir[] = "/tmp/vbed-saveimage-XXXXXX", src[64], dst[64];
    size_t n = image_in_dir(img, sizeof(img), dir, src, dst);
    const char *name = "vbed-e2etest-001-there-1", *uuid = "f3cb64b5-ee23-4695-a1d4-3483d9b8e325";
    unsigned char *head = NULL;
    size_t hl = 0;
    assert_int_equal(saveimage_renamed_head(src, name, uuid, &head, &hl), 0);
    assert_int_equal(hl, SAVEIMAGE_HEADER_SIZE + 4096);
    size_t got = copy_and_read(src, dst, name, uuid, out, sizeof(out));
    assert_int_equal(got, n);
    assert_memory_equal(out, head, hl);
    assert_memory_equal(out + hl, img + hl, n - hl);
    char *x, *c, why[256];
    unsigned dlen;
    assert_int_equal(saveimage_parse(head, hl, &x, &c, &dlen, why, sizeof(why)), 0);
    assert_non_null(strstr(x, "<name>vbed-e2etest-001-there-1</name>"));
    free(x);
    free(c);
    free(head);
    /* a name that would not fit: no head */
    n = make_image(img, sizeof(img), "LibvirtQemudSave", 2, 0, (uint32_t)sizeof(xml) + 40, xml, true);
    write_file(src, img, n);
    head = NULL;
    assert_int_equal(saveimage_renamed_head(src, "vbed-e2etest-001-a-much-longer-arm-name-1", uuid, &head, &hl), -1);
    assert_null(head);
    unlink(src);
    unlink(dst);
    rmdir(dir);
}

static void refused(void **state)
{
    (void)state;
    static unsigned char img[16384];
    char dir[] = "/tmp/vbed-saveimage-XXXXXX", src[64], dst[64];
    assert_non_null(mkdtemp(dir));
    snprintf(src, sizeof(src), "%s/a.save", dir);
    snprintf(dst, sizeof(dst), "%s/b.save", dir);
    struct {
        const char *magic;
        uint32_t version, format, data_len;
        const char *xml;
    } bad[] = {
        {"LibvirtQemudPart", 2, 0, 4096, xml},  /* a partial save */
        {"LibvirtQemudSave", 3, 0, 4096, xml},  /* another version */
        {"LibvirtQemudSave", 2, 1, 4096, xml},  /* gzip */
        {"LibvirtQemudSave", 2, 0, 4096, "<domain><uuid>x</uuid></domain>"}, /* no name */
        {"LibvirtQemudSave", 2, 0, 4096, "<domain><name>a</name><name>b</name><uuid>u</uuid></domain>"},
        {"LibvirtQemudSave", 2, 0, (uint32_t)sizeof(xml) + 40, xml}, /* the new name does not fit */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        size_t n = make_image(img, sizeof(img), bad[i].magic, bad[i].version, bad[i].format,
                              bad[i].data_len, bad[i].xml, true);
        write_file(src, img, n);
        if (saveimage_copy_as(src, dst, "vbed-e2etest-001-a-much-longer-arm-name-1",
                              "f3cb64b5-ee23-4695-a1d4-3483d9b8e325") != -1)
            fail_msg("image %zu was accepted", i);
        if (access(dst, F_OK) == 0)
            fail_msg("image %zu left its copy behind", i);
    }
    /* a truncated header, and an XML area longer than the file */
    char *x, *c, why[256];
    unsigned dlen;
    size_t n = make_image(img, sizeof(img), "LibvirtQemudSave", 2, 0, 4096, xml, false);
    assert_int_equal(saveimage_parse(img, 50, &x, &c, &dlen, why, sizeof(why)), -1);
    assert_int_equal(saveimage_parse(img, 200, &x, &c, &dlen, why, sizeof(why)), -1);
    assert_int_equal(saveimage_parse(img, n, &x, &c, &dlen, why, sizeof(why)), 0);
    assert_string_equal(c, ""); /* no cookie */
    free(x);
    free(c);
    /* markup in a name is refused */
    assert_null(saveimage_rename_xml(xml, "a<b", "u", why, sizeof(why)));
    unlink(src);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(renamed_copy),
        cmocka_unit_test(renamed_head), cmocka_unit_test(refused)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
