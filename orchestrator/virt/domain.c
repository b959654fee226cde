/* domain.c: write a guest's libvirt domain XML with libxml2's text writer.
 *
 * The guest boots its kernel directly (no bootloader), has three virtio
 * disks told apart by serial (root overlay, data disk under test, read-only
 * run configuration) and, with data_disks > 1, the other data disks after
 * them (vbed-data-2 ...), a virtio-serial channel for the QEMU guest agent and
 * a serial console written to a file. Shutdown, reboot and crash all end
 * the domain: vbed's guests are transient and never meant to come back. */
#include "virt/domain.h"

#include "scenario/keys.h"
#include "util/log.h"
#include "util/xalloc.h"
#include "util/xmlout.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void domain_name(char *buf, unsigned long len, const char *runid, const char *arm, int n)
{
    snprintf(buf, len, "vbed-%s-%s-%d", runid, arm, n);
}

/* <metadata> naming the session and machine that made the domain */
static int write_owner(xmlTextWriterPtr w, const char *session, const char *machine)
{
    if (!machine)
        return 0;
    XO(xo_start(w, "metadata"));
    XO(xo_start(w, DOMAIN_OWNER_PREFIX ":owner"));
    XO(xo_attr(w, "xmlns:" DOMAIN_OWNER_PREFIX, DOMAIN_OWNER_NS));
    if (session)
        XO(xo_attr(w, "session", session));
    XO(xo_attr(w, "machine", machine));
    XO(xo_end(w));
    XO(xo_end(w));
    return 0;
fail:
    return -1;
}

static int write_serial_file(xmlTextWriterPtr w, const char *path)
{
    XO(xo_start(w, "serial"));
    XO(xo_attr(w, "type", "file"));
    XO(xo_start(w, "source"));
    XO(xo_attr(w, "path", path));
    XO(xo_end(w));
    XO(xo_start(w, "target"));
    XO(xo_attr(w, "port", "0"));
    XO(xo_end(w));
    XO(xo_end(w));
    return 0;
fail:
    return -1;
}

struct disk_xml {
    const char *path;
    const char *format;
    const char *cache;  /* NULL: QEMU's default */
    const char *io;     /* NULL: QEMU's default */
    const char *dev;
    const char *serial;
    int readonly;
};

static int write_disk(xmlTextWriterPtr w, const struct disk_xml *d)
{
    XO(xo_start(w, "disk"));
    XO(xo_attr(w, "type", "file"));
    XO(xo_attr(w, "device", "disk"));
    XO(xo_start(w, "driver"));
    XO(xo_attr(w, "name", "qemu"));
    XO(xo_attr(w, "type", d->format));
    if (d->cache)
        XO(xo_attr(w, "cache", d->cache));
    if (d->io)
        XO(xo_attr(w, "io", d->io));
    XO(xo_end(w));
    XO(xo_start(w, "source"));
    XO(xo_attr(w, "file", d->path));
    XO(xo_end(w));
    XO(xo_start(w, "target"));
    XO(xo_attr(w, "dev", d->dev));
    XO(xo_attr(w, "bus", "virtio"));
    XO(xo_end(w));
    XO(xo_text_el(w, "serial", d->serial));
    if (d->readonly)
        XO(xo_empty_el(w, "readonly"));
    XO(xo_end(w));
    return 0;
fail:
    return -1;
}

/* The disks after the root disk, in domain_xml's order: the data disk
 * (vdb), the configuration disk (vdc), data disks 2.. (vdd ...); names
 * keeps their target names and serials. The count. */
struct disk_names {
    char dev[8], serial[32];
};
#define PLUGGED_MAX 17

static size_t plugged_disks(const struct domain_spec *s, struct disk_xml *d, struct disk_names *names)
{
    size_t n = 0;
    const char *format = key_choice("disk_format", s->data_format);
    const char *cache = key_choice("disk_cache", s->data_cache), *io = key_choice("disk_io", s->data_io);
    if (s->data_path)
        d[n++] = (struct disk_xml){s->data_path, format, cache, io, "vdb", DOMAIN_SERIAL_DATA, 0};
    d[n++] = (struct disk_xml){s->config_path, "raw", NULL, NULL, "vdc", DOMAIN_SERIAL_CONFIG, 1};
    for (int i = 0; s->data_path && i < s->n_more_data && i < 15; i++) {
        snprintf(names[n].dev, sizeof(names[n].dev), "vd%c", 'd' + i);
        snprintf(names[n].serial, sizeof(names[n].serial), "%s-%d", DOMAIN_SERIAL_DATA, i + 2);
        d[n] = (struct disk_xml){s->more_data_path[i], format, cache, io, names[n].dev, names[n].serial, 0};
        n++;
    }
    return n;
}

static int write_devices(xmlTextWriterPtr w, const struct domain_spec *s)
{
    XO(xo_start(w, "devices"));
    struct disk_xml root = {s->root_path, "qcow2", NULL, NULL, "vda", DOMAIN_SERIAL_ROOT, 0};
    XO(write_disk(w, &root));
    struct disk_xml d[PLUGGED_MAX];
    struct disk_names names[PLUGGED_MAX];
    size_t nd = s->plugged_later ? 0 : plugged_disks(s, d, names);
    for (size_t i = 0; i < nd; i++)
        XO(write_disk(w, &d[i]));

    XO(xo_start(w, "channel"));
    XO(xo_attr(w, "type", "unix"));
    XO(xo_start(w, "target"));
    XO(xo_attr(w, "type", "virtio"));
    XO(xo_attr(w, "name", DOMAIN_AGENT_CHANNEL));
    XO(xo_end(w));
    XO(xo_end(w));

    XO(write_serial_file(w, s->console_log));

    /* entropy for a guest that boots under TCG; no balloon: memory is fixed */
    XO(xo_start(w, "rng"));
    XO(xo_attr(w, "model", "virtio"));
    XO(xo_start(w, "backend"));
    XO(xo_attr(w, "model", "random"));
    XO(xo_text(w, "/dev/urandom"));
    XO(xo_end(w));
    XO(xo_end(w));
    /* a balloon that is never inflated, for its statistics: the guest's
     * page cache seen from the host (balloon.disk_caches, layers.h) */
    XO(xo_start(w, "memballoon"));
    XO(xo_attr(w, "model", "virtio"));
    XO(xo_start(w, "stats"));
    XO(xo_attr(w, "period", "5"));
    XO(xo_end(w));
    XO(xo_end(w));
    XO(xo_end(w)); /* devices */
    return 0;
fail:
    return -1;
}

static int write_domain(xmlTextWriterPtr w, const struct domain_spec *s)
{
    char num[64];
    XO(xo_start(w, "domain"));
    XO(xo_attr(w, "type", s->virt_type == VIRT_KVM ? "kvm" : "qemu"));
    XO(xo_text_el(w, "name", s->name));
    if (s->uuid)
        XO(xo_text_el(w, "uuid", s->uuid));
    XO(write_owner(w, s->session, s->machine));
    XO(xo_start(w, "memory"));
    XO(xo_attr(w, "unit", "KiB"));
    snprintf(num, sizeof(num), "%lld", s->memory / 1024);
    XO(xo_text(w, num));
    XO(xo_end(w));
    snprintf(num, sizeof(num), "%lld", s->vcpus);
    XO(xo_start(w, "vcpu"));
    if (s->cpuset && *s->cpuset)
        XO(xo_attr(w, "cpuset", s->cpuset));
    XO(xo_text(w, num));
    XO(xo_end(w));
    if (s->vcpu_pin || s->emulator_pin >= 0) {
        XO(xo_start(w, "cputune"));
        for (long long v = 0; s->vcpu_pin && v < s->vcpus; v++) {
            XO(xo_start(w, "vcpupin"));
            snprintf(num, sizeof(num), "%lld", v);
            XO(xo_attr(w, "vcpu", num));
            snprintf(num, sizeof(num), "%d", s->vcpu_pin[v]);
            XO(xo_attr(w, "cpuset", num));
            XO(xo_end(w));
        }
        if (s->emulator_pin >= 0) {
            XO(xo_start(w, "emulatorpin"));
            snprintf(num, sizeof(num), "%d", s->emulator_pin);
            XO(xo_attr(w, "cpuset", num));
            XO(xo_end(w));
        }
        XO(xo_end(w));
    }

    XO(xo_start(w, "os"));
    XO(xo_start(w, "type"));
    XO(xo_attr(w, "arch", "x86_64"));
    XO(xo_text(w, "hvm"));
    XO(xo_end(w));
    XO(xo_text_el(w, "kernel", s->kernel));
    XO(xo_text_el(w, "initrd", s->initrd));
    XO(xo_text_el(w, "cmdline", s->cmdline));
    XO(xo_end(w));

    XO(xo_start(w, "features"));
    XO(xo_empty_el(w, "acpi"));
    XO(xo_empty_el(w, "apic"));
    XO(xo_end(w));
    XO(xo_start(w, "cpu"));
    XO(xo_attr(w, "mode", s->virt_type == VIRT_KVM ? "host-passthrough" : "maximum"));
    XO(xo_end(w));
    XO(xo_start(w, "clock"));
    XO(xo_attr(w, "offset", "utc"));
    XO(xo_end(w));
    XO(xo_text_el(w, "on_poweroff", "destroy"));
    XO(xo_text_el(w, "on_reboot", "destroy"));
    XO(xo_text_el(w, "on_crash", "destroy"));
    XO(write_devices(w, s));
    XO(xo_end(w)); /* domain */
    return 0;
fail:
    return -1;
}

struct probe_args {
    const char *name;
    int virt_type;
    const char *kernel;
    const char *console_log;
    const char *machine;
};

static int write_probe(xmlTextWriterPtr w, const struct probe_args *p)
{
    XO(xo_start(w, "domain"));
    XO(xo_attr(w, "type", p->virt_type == VIRT_KVM ? "kvm" : "qemu"));
    XO(xo_text_el(w, "name", p->name));
    XO(write_owner(w, NULL, p->machine));
    XO(xo_start(w, "memory"));
    XO(xo_attr(w, "unit", "MiB"));
    XO(xo_text(w, "256"));
    XO(xo_end(w));
    XO(xo_text_el(w, "vcpu", "1"));
    XO(xo_start(w, "os"));
    XO(xo_start(w, "type"));
    XO(xo_attr(w, "arch", "x86_64"));
    XO(xo_text(w, "hvm"));
    XO(xo_end(w));
    XO(xo_text_el(w, "kernel", p->kernel));
    XO(xo_text_el(w, "cmdline", DOMAIN_PROBE_CMDLINE));
    XO(xo_end(w));
    XO(xo_start(w, "cpu"));
    XO(xo_attr(w, "mode", p->virt_type == VIRT_KVM ? "host-passthrough" : "maximum"));
    XO(xo_end(w));
    XO(xo_text_el(w, "on_poweroff", "destroy"));
    XO(xo_text_el(w, "on_reboot", "destroy"));
    XO(xo_text_el(w, "on_crash", "destroy"));
    XO(xo_start(w, "devices"));
    XO(write_serial_file(w, p->console_log));
    XO(xo_start(w, "memballoon"));
    XO(xo_attr(w, "model", "none"));
    XO(xo_end(w));
    XO(xo_end(w));
    XO(xo_end(w));
    return 0;
fail:
    return -1;
}

static int domain_fn(xmlTextWriterPtr w, const void *arg)
{
    return write_domain(w, arg);
}

static int probe_fn(xmlTextWriterPtr w, const void *arg)
{
    return write_probe(w, arg);
}

char *domain_probe_xml(const char *name, int virt_type, const char *kernel, const char *console_log,
                       const char *machine)
{
    struct probe_args p = {name, virt_type, kernel, console_log, machine};
    return xmlout_render("the probe domain", probe_fn, &p);
}

static int disk_fn(xmlTextWriterPtr w, const void *arg)
{
    return write_disk(w, arg);
}

int domain_plug_xml(const struct domain_spec *s, char ***xmls, size_t *n)
{
    *xmls = NULL;
    *n = 0;
    struct disk_xml d[PLUGGED_MAX];
    struct disk_names names[PLUGGED_MAX];
    size_t nd = plugged_disks(s, d, names);
    for (size_t i = 0; i < nd; i++) {
        char what[128];
        snprintf(what, sizeof(what), "disk %s of domain '%s'", d[i].dev, s->name);
        char *x = xmlout_render(what, disk_fn, &d[i]);
        if (!x) {
            for (size_t k = 0; k < *n; k++)
                free((*xmls)[k]);
            free(*xmls);
            *xmls = NULL;
            *n = 0;
            return -1;
        }
        *xmls = xrealloc(*xmls, (*n + 1) * sizeof(char *));
        (*xmls)[(*n)++] = x;
    }
    return 0;
}

char *domain_tables_xml(const char *domain, const char *path)
{
    struct disk_xml d = {path, "raw", NULL, NULL, DOMAIN_DEV_TABLES, DOMAIN_SERIAL_TABLES, 1};
    char what[128];
    snprintf(what, sizeof(what), "the tables disk of domain '%s'", domain);
    return xmlout_render(what, disk_fn, &d);
}

char *domain_xml(const struct domain_spec *s)
{
    char what[128];
    snprintf(what, sizeof(what), "domain '%s'", s->name);
    return xmlout_render(what, domain_fn, s);
}

/* the element child of node named name, or NULL */
static xmlNodePtr child(xmlNodePtr node, const char *name)
{
    for (xmlNodePtr c = node ? node->children : NULL; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && !xmlStrcmp(c->name, (const xmlChar *)name))
            return c;
    return NULL;
}

/* an attribute's value (want) against node's (NULL: absent); -1 with why */
static int same_attr(xmlNodePtr node, const char *attr, const char *want, const char *serial,
                     char *why, size_t len)
{
    xmlChar *got = node ? xmlGetProp(node, (const xmlChar *)attr) : NULL;
    int rc = got && !strcmp((const char *)got, want) ? 0 : -1;
    if (rc < 0)
        snprintf(why, len, "the running domain's disk %s has %s='%s', the run asked for '%s'", serial,
                 attr, got ? (const char *)got : "(none)", want);
    xmlFree(got);
    return rc;
}

int domain_check_live(const char *xml, int n, int format, int cache, int io, char *why, size_t len)
{
    xmlDocPtr doc = xmlReadMemory(xml, (int)strlen(xml), "live.xml", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlNodePtr devices = doc ? child(xmlDocGetRootElement(doc), "devices") : NULL;
    int rc = devices ? 0 : -1, seen = 0;
    if (rc < 0)
        snprintf(why, len, "libvirt's XML of the running domain has no devices");
    const char *want_format = key_choice("disk_format", format);
    const char *want_cache = key_choice("disk_cache", cache), *want_io = key_choice("disk_io", io);
    for (xmlNodePtr d = devices ? devices->children : NULL; rc == 0 && d; d = d->next) {
        if (d->type != XML_ELEMENT_NODE || xmlStrcmp(d->name, (const xmlChar *)"disk"))
            continue;
        xmlNodePtr sn = child(d, "serial");
        xmlChar *serial = sn ? xmlNodeGetContent(sn) : NULL;
        const char *s = serial ? (const char *)serial : "";
        size_t k = strlen(DOMAIN_SERIAL_DATA);
        if (!strncmp(s, DOMAIN_SERIAL_DATA, k) && (s[k] == '\0' || s[k] == '-')) {
            seen++;
            xmlNodePtr drv = child(d, "driver");
            rc = same_attr(drv, "type", want_format, s, why, len);
            if (rc == 0)
                rc = same_attr(drv, "cache", want_cache, s, why, len);
            if (rc == 0)
                rc = same_attr(drv, "io", want_io, s, why, len);
        }
        xmlFree(serial);
    }
    if (rc == 0 && seen != n) {
        snprintf(why, len, "the running domain has %d data disk%s, the run asked for %d", seen,
                 seen == 1 ? "" : "s", n);
        rc = -1;
    }
    xmlFreeDoc(doc);
    return rc;
}
