/* test_report_html.c: report.html without gnuplot: hostile text from
 * meta.json and the scenario is escaped, and an SVG plot is inlined with
 * its ids and references prefixed (two plots in one page must not share
 * ids) while colours such as fill="#ffffff" stay as they are. Whether the
 * page renders is tests/report/html-chromium.sh's business. */
#include "testutil.h"
#include <fcntl.h>
#include "report/html.h"
#include "util/log.h"

#include <dirent.h>
#include <unistd.h>

static const char svg[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
    "<svg width=\"100\" height=\"50\" viewBox=\"0 0 100 50\" xmlns=\"http://www.w3.org/2000/svg\"\n"
    " xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
    "<g id=\"gnuplot_canvas\"><rect x=\"0\" y=\"0\" width=\"100\" height=\"50\" "
    "fill=\"#ffffff\"/>\n"
    "<defs><clipPath id=\"gpclip\"><rect x=\"0\" y=\"0\" width=\"9\" height=\"9\"/></clipPath>\n"
    "<circle id='gpPt5' r='1'/></defs>\n"
    "<use xlink:href='#gpPt5' fill='currentColor'/>\n"
    "<path clip-path=\"url(#gpclip)\" stroke=\"#1b9e77\" d=\"M0,0 L9,9\"/>\n"
    "<text>a &amp; b &lt; c</text></g></svg>\n";

static void escaping_and_inlining(void **state)
{
    (void)state;
    char dir[] = "/tmp/vbed-test-html.XXXXXX";
    assert_non_null(mkdtemp(dir));
    test_write_file(dir, "meta.json",
               "{\"status\": \"complete\", \"accel\": \"tcg\",\n"
               " \"scenario\": {\"name\": \"<script>alert(1)</script>\"},\n"
               " \"host\": {\"hostname\": \"a&b\\\"c\"},\n"
               " \"variants\": [{\"index\": 1, \"label\": \"x=1\"}],\n"
               " \"arms\": [{\"name\": \"host\", \"kind\": \"host\"}]}\n");
    test_write_file(dir, "samples.jsonl",
               "{\"metric\":\"tps_arm\",\"value\":100,\"labels\":{\"arm\":\"host\",\"seq\":1}}\n");
    test_write_file(dir, "scenario.ini", "; </pre><img src=x onerror=alert(1)>\n[global]\n");
    test_write_file(dir, "bars.svg", svg);
    struct results_data *rd = results_read(dir);
    assert_non_null(rd);
    /* results_read() refuses such a label (test_report_hostile.c); the page
     * escapes it all the same */
    char *label = rd->variants[0].label;
    rd->variants[0].label = "x=<b>bold</b>";
    struct report *r = report_build(rd);
    struct plot p = {.file = "bars.svg", .title = "TPS <per> arm"};
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(dirfd >= 0);
    struct plot_set plots = {.plots = &p, .n = 1, .dirfd = dirfd};
    assert_int_equal(html_write_report(r, &plots, dirfd, dir, NULL), 0);

    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/report.html", dir);
    char *html = test_read_file(path);
    assert_non_null(html);
    assert_null(strstr(html, "<script"));
    assert_null(strstr(html, "<img"));
    assert_null(strstr(html, "<b>bold"));
    assert_non_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_non_null(strstr(html, "x=&lt;b&gt;bold&lt;/b&gt;"));
    assert_non_null(strstr(html, "a&amp;b&quot;c"));
    assert_non_null(strstr(html, "; &lt;/pre&gt;&lt;img src=x"));
    assert_non_null(strstr(html, "TPS &lt;per&gt; arm"));
    assert_non_null(strstr(html, "not comparable with KVM"));
    /* the plot, inline, ids prefixed, colours untouched */
    assert_non_null(strstr(html, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_null(strstr(html, "<?xml"));
    assert_non_null(strstr(html, "id=\"p1-gnuplot_canvas\""));
    assert_non_null(strstr(html, "id=\"p1-gpclip\""));
    assert_non_null(strstr(html, "xlink:href=\"#p1-gpPt5\""));
    assert_non_null(strstr(html, "clip-path=\"url(#p1-gpclip)\""));
    assert_non_null(strstr(html, "fill=\"#ffffff\""));
    assert_non_null(strstr(html, "stroke=\"#1b9e77\""));
    assert_non_null(strstr(html, "a &amp; b &lt; c"));
    free(html);

    /* no plots: the page says why */
    struct plot_set none = {0};
    assert_int_equal(html_write_report(r, &none, dirfd, dir, "gnuplot is not installed."), 0);
    html = test_read_file(path);
    assert_non_null(strstr(html, "No plots: gnuplot is not installed."));
    assert_null(strstr(html, "<svg"));
    free(html);

    /* a plot that is not SVG: reported, no report.html left half-written */
    test_write_file(dir, "bars.svg", "<html>not svg</html>");
    unlink(path);
    struct captured cap = {{0}};
    log_set_sink(capture_sink, &cap);
    assert_int_equal(html_write_report(r, &plots, dirfd, dir, NULL), -1);
    log_set_sink(NULL, NULL);
    assert_non_null(strstr(cap.text, "bars.svg"));
    assert_int_equal(access(path, F_OK), -1);

    close(dirfd);
    report_free(r);
    rd->variants[0].label = label;
    results_data_free(rd);
    test_remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escaping_and_inlining),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
