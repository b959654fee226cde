/* hypervisor.c: open a libvirt connection and read its capabilities. */
#include "hypervisor.h"

#include "log.h"

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hv {
    virConnectPtr conn;
    struct hv_info info;
};

static void ignore_error(void *opaque, virErrorPtr err)
{
    (void)opaque;
    (void)err;
}

void hv_init(void)
{
    virInitialize();
    virSetErrorFunc(NULL, ignore_error);
}

const char *hv_last_error(void)
{
    virErrorPtr err = virGetLastError();
    return err && err->message ? err->message : "unknown error";
}

void hv_format_version(unsigned long v, char *buf, unsigned long len)
{
    snprintf(buf, len, "%lu.%lu.%lu", v / 1000000, (v / 1000) % 1000, v % 1000);
}

/* Which domain types the capabilities offer for x86_64 guests. */
static void read_capabilities(struct hv *hv)
{
    char *caps = virConnectGetCapabilities(hv->conn);
    if (!caps) {
        log_warn("Cannot read the capabilities of '%s': %s", hv->info.uri, hv_last_error());
        return;
    }
    xmlDocPtr doc = xmlReadMemory(caps, (int)strlen(caps), "capabilities.xml", NULL, XML_PARSE_NONET);
    xmlXPathContextPtr ctx = doc ? xmlXPathNewContext(doc) : NULL;
    xmlXPathObjectPtr res =
        ctx ? xmlXPathEvalExpression(
                  BAD_CAST "/capabilities/guest[os_type='hvm']/arch[@name='x86_64']/domain/@type", ctx)
            : NULL;
    if (res && res->nodesetval) {
        for (int i = 0; i < res->nodesetval->nodeNr; i++) {
            xmlChar *t = xmlNodeGetContent(res->nodesetval->nodeTab[i]);
            if (t && strcmp((char *)t, "kvm") == 0)
                hv->info.kvm_offered = true;
            if (t && strcmp((char *)t, "qemu") == 0)
                hv->info.qemu_offered = true;
            xmlFree(t);
        }
    }
    xmlXPathFreeObject(res);
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    free(caps);
}

static struct hv *open_conn(const char *uri, bool quiet)
{
    struct hv *hv = calloc(1, sizeof(*hv));
    if (!hv)
        return NULL;
    hv->conn = virConnectOpen(uri);
    if (!hv->conn) {
        if (!quiet)
            log_error("Cannot connect to libvirt at '%s': %s",
                      uri ? uri : "(libvirt's default URI)", hv_last_error());
        free(hv);
        return NULL;
    }
    char *real = virConnectGetURI(hv->conn);
    snprintf(hv->info.uri, sizeof(hv->info.uri), "%s", real ? real : (uri ? uri : "?"));
    free(real);
    char *host = virConnectGetHostname(hv->conn);
    snprintf(hv->info.hostname, sizeof(hv->info.hostname), "%s", host ? host : "?");
    free(host);
    /* a URI with a server part (qemu+ssh://host/system) reaches another machine */
    const char *sep = strstr(hv->info.uri, "://");
    hv->info.remote = sep && sep[3] != '/' && sep[3] != '\0';
    virConnectGetLibVersion(hv->conn, &hv->info.lib_version);
    virConnectGetVersion(hv->conn, &hv->info.hv_version);
    read_capabilities(hv);
    return hv;
}

struct hv *hv_open(const char *uri) { return open_conn(uri, false); }
struct hv *hv_try_open(const char *uri) { return open_conn(uri, true); }

void hv_close(struct hv *hv)
{
    if (!hv)
        return;
    if (hv->conn)
        virConnectClose(hv->conn);
    free(hv);
}

virConnectPtr hv_conn(struct hv *hv) { return hv->conn; }
const struct hv_info *hv_get_info(struct hv *hv) { return &hv->info; }
