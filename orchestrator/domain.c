/* domain.c: write a guest's libvirt domain XML with libxml2's text writer.
 *
 * The guest boots its kernel directly (no bootloader), has three virtio
 * disks told apart by serial (root overlay, data disk under test, read-only
 * run configuration), a virtio-serial channel for the QEMU guest agent and
 * a serial console written to a file. Shutdown, reboot and crash all end
 * the domain: vbed's guests are transient and never meant to come back. */
#include "domain.h"

#include "keys.h"
#include "log.h"

#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void domain_name(char *buf, unsigned long len, const char *runid, const char *arm, int n)
{
    snprintf(buf, len, "vbed-%s-%s-%d", runid, arm, n);
}

/* Shorthands that stop at the first failure: each returns <0 on error. */
#define W(call)                                                                                    \
    do {                                                                                           \
        if ((call) < 0)                                                                            \
            goto fail;                                                                             \
    } while (0)

static int start(xmlTextWriterPtr w, const char *el) { return xmlTextWriterStartElement(w, BAD_CAST el); }
static int end(xmlTextWriterPtr w) { return xmlTextWriterEndElement(w); }
static int attr(xmlTextWriterPtr w, const char *name, const char *value)
{
    return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST value);
}
static int text_el(xmlTextWriterPtr w, const char *el, const char *value)
{
    return xmlTextWriterWriteElement(w, BAD_CAST el, BAD_CAST value);
}
static int empty_el(xmlTextWriterPtr w, const char *el)
{
    if (start(w, el) < 0)
        return -1;
    return end(w);
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
    W(start(w, "disk"));
    W(attr(w, "type", "file"));
    W(attr(w, "device", "disk"));
    W(start(w, "driver"));
    W(attr(w, "name", "qemu"));
    W(attr(w, "type", d->format));
    if (d->cache)
        W(attr(w, "cache", d->cache));
    if (d->io)
        W(attr(w, "io", d->io));
    W(end(w));
    W(start(w, "source"));
    W(attr(w, "file", d->path));
    W(end(w));
    W(start(w, "target"));
    W(attr(w, "dev", d->dev));
    W(attr(w, "bus", "virtio"));
    W(end(w));
    W(text_el(w, "serial", d->serial));
    if (d->readonly)
        W(empty_el(w, "readonly"));
    W(end(w));
    return 0;
fail:
    return -1;
}

static int write_devices(xmlTextWriterPtr w, const struct domain_spec *s)
{
    W(start(w, "devices"));
    struct disk_xml root = {s->root_path, "qcow2", NULL, NULL, "vda", DOMAIN_SERIAL_ROOT, 0};
    W(write_disk(w, &root));
    if (s->data_path) {
        struct disk_xml data = {s->data_path, key_choice("disk_format", s->data_format),
                                key_choice("disk_cache", s->data_cache),
                                key_choice("disk_io", s->data_io), "vdb", DOMAIN_SERIAL_DATA, 0};
        W(write_disk(w, &data));
    }
    struct disk_xml config = {s->config_path, "raw", NULL, NULL, "vdc", DOMAIN_SERIAL_CONFIG, 1};
    W(write_disk(w, &config));

    W(start(w, "channel"));
    W(attr(w, "type", "unix"));
    W(start(w, "target"));
    W(attr(w, "type", "virtio"));
    W(attr(w, "name", DOMAIN_AGENT_CHANNEL));
    W(end(w));
    W(end(w));

    W(start(w, "serial"));
    W(attr(w, "type", "file"));
    W(start(w, "source"));
    W(attr(w, "path", s->console_log));
    W(end(w));
    W(start(w, "target"));
    W(attr(w, "port", "0"));
    W(end(w));
    W(end(w));

    /* entropy for a guest that boots under TCG; no balloon: memory is fixed */
    W(start(w, "rng"));
    W(attr(w, "model", "virtio"));
    W(start(w, "backend"));
    W(attr(w, "model", "random"));
    W(xmlTextWriterWriteString(w, BAD_CAST "/dev/urandom"));
    W(end(w));
    W(end(w));
    W(start(w, "memballoon"));
    W(attr(w, "model", "none"));
    W(end(w));
    W(end(w)); /* devices */
    return 0;
fail:
    return -1;
}

static int write_domain(xmlTextWriterPtr w, const struct domain_spec *s)
{
    char num[64];
    W(xmlTextWriterStartDocument(w, NULL, NULL, NULL));
    W(start(w, "domain"));
    W(attr(w, "type", s->virt_type == VIRT_KVM ? "kvm" : "qemu"));
    W(text_el(w, "name", s->name));
    W(start(w, "memory"));
    W(attr(w, "unit", "KiB"));
    snprintf(num, sizeof(num), "%lld", s->memory / 1024);
    W(xmlTextWriterWriteString(w, BAD_CAST num));
    W(end(w));
    snprintf(num, sizeof(num), "%lld", s->vcpus);
    W(text_el(w, "vcpu", num));

    W(start(w, "os"));
    W(start(w, "type"));
    W(attr(w, "arch", "x86_64"));
    W(xmlTextWriterWriteString(w, BAD_CAST "hvm"));
    W(end(w));
    W(text_el(w, "kernel", s->kernel));
    W(text_el(w, "initrd", s->initrd));
    W(text_el(w, "cmdline", s->cmdline));
    W(end(w));

    W(start(w, "features"));
    W(empty_el(w, "acpi"));
    W(empty_el(w, "apic"));
    W(end(w));
    W(start(w, "cpu"));
    W(attr(w, "mode", s->virt_type == VIRT_KVM ? "host-passthrough" : "maximum"));
    W(end(w));
    W(start(w, "clock"));
    W(attr(w, "offset", "utc"));
    W(end(w));
    W(text_el(w, "on_poweroff", "destroy"));
    W(text_el(w, "on_reboot", "destroy"));
    W(text_el(w, "on_crash", "destroy"));
    W(write_devices(w, s));
    W(end(w)); /* domain */
    W(xmlTextWriterEndDocument(w));
    return 0;
fail:
    return -1;
}

static int write_probe(xmlTextWriterPtr w, const char *name, int virt_type, const char *kernel)
{
    W(xmlTextWriterStartDocument(w, NULL, NULL, NULL));
    W(start(w, "domain"));
    W(attr(w, "type", virt_type == VIRT_KVM ? "kvm" : "qemu"));
    W(text_el(w, "name", name));
    W(start(w, "memory"));
    W(attr(w, "unit", "MiB"));
    W(xmlTextWriterWriteString(w, BAD_CAST "256"));
    W(end(w));
    W(text_el(w, "vcpu", "1"));
    W(start(w, "os"));
    W(start(w, "type"));
    W(attr(w, "arch", "x86_64"));
    W(xmlTextWriterWriteString(w, BAD_CAST "hvm"));
    W(end(w));
    W(text_el(w, "kernel", kernel));
    W(text_el(w, "cmdline", "panic=-1 root=/dev/vbed-probe-no-such-disk"));
    W(end(w));
    W(start(w, "cpu"));
    W(attr(w, "mode", virt_type == VIRT_KVM ? "host-passthrough" : "maximum"));
    W(end(w));
    W(text_el(w, "on_poweroff", "destroy"));
    W(text_el(w, "on_reboot", "destroy"));
    W(text_el(w, "on_crash", "destroy"));
    W(start(w, "devices"));
    W(start(w, "memballoon"));
    W(attr(w, "model", "none"));
    W(end(w));
    W(end(w));
    W(end(w));
    W(xmlTextWriterEndDocument(w));
    return 0;
fail:
    return -1;
}

/* Run a writer function into a string without the XML declaration. */
static char *render(const char *name, int (*fn)(xmlTextWriterPtr, const void *), const void *arg)
{
    char *out = NULL;
    xmlBufferPtr buf = xmlBufferCreate();
    xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
    if (!w) {
        log_error("Cannot create an XML writer for domain '%s'.", name);
        goto cleanup;
    }
    xmlTextWriterSetIndent(w, 1);
    xmlTextWriterSetIndentString(w, BAD_CAST "  ");
    if (fn(w, arg) < 0) {
        log_error("Cannot write the XML of domain '%s'.", name);
        goto cleanup;
    }
    xmlFreeTextWriter(w); /* flushes into buf */
    w = NULL;
    const char *xml = (const char *)xmlBufferContent(buf);
    const char *body = strstr(xml, "<domain");
    out = strdup(body ? body : xml);
cleanup:
    if (w)
        xmlFreeTextWriter(w);
    if (buf)
        xmlBufferFree(buf);
    return out;
}

static int domain_fn(xmlTextWriterPtr w, const void *arg)
{
    return write_domain(w, arg);
}

struct probe_args {
    const char *name;
    int virt_type;
    const char *kernel;
};

static int probe_fn(xmlTextWriterPtr w, const void *arg)
{
    const struct probe_args *p = arg;
    return write_probe(w, p->name, p->virt_type, p->kernel);
}

char *domain_probe_xml(const char *name, int virt_type, const char *kernel)
{
    struct probe_args p = {name, virt_type, kernel};
    return render(name, probe_fn, &p);
}

char *domain_xml(const struct domain_spec *s)
{
    return render(s->name, domain_fn, s);
}
