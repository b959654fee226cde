/* test_accel.c: the KVM probe's verdict is read from its console: KVM works
 * only if the kernel got to its panic. A console that is empty, or stops in
 * early boot (a hang under a broken KVM), is not a working KVM; neither is
 * no console at all. The texts are in tests/data/accel/. */
#include "testutil.h"
#include "virt/accel.h"

static enum accel_verdict verdict_of(const char *rel)
{
    char path[PATH_MAX];
    test_data_path(path, sizeof(path), rel);
    char *text = test_read_file(path);
    assert_non_null(text);
    enum accel_verdict v = accel_console_verdict(text);
    free(text);
    return v;
}

static void panic_means_kvm_works(void **state)
{
    (void)state;
    assert_int_equal(verdict_of("accel/panic.txt"), ACCEL_KVM_WORKS);
    /* either line of the panic is enough (a console cut after one of them) */
    assert_int_equal(accel_console_verdict("[ 0.9] Kernel panic - not syncing: Attempted to kill init!\n"),
                     ACCEL_KVM_WORKS);
    assert_int_equal(accel_console_verdict("[ 0.9] VFS: Unable to mount root fs on unknown-block(0,0)"),
                     ACCEL_KVM_WORKS);
}

static void empty_console_is_tcg(void **state)
{
    (void)state;
    assert_int_equal(verdict_of("accel/empty.txt"), ACCEL_TCG_ONLY);
    assert_int_equal(accel_console_verdict(NULL), ACCEL_TCG_ONLY);
}

static void early_boot_hang_is_tcg(void **state)
{
    (void)state;
    /* the command line itself names the missing root: not a panic */
    assert_int_equal(verdict_of("accel/hang-early.txt"), ACCEL_TCG_ONLY);
    assert_int_equal(accel_console_verdict("[ 0.9] VFS: Cannot open root device \"x\"\n"),
                     ACCEL_TCG_ONLY);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(panic_means_kvm_works),
        cmocka_unit_test(empty_console_is_tcg),
        cmocka_unit_test(early_boot_hang_is_tcg),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
