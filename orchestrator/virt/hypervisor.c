/* hypervisor.c: open a libvirt connection and read its capabilities. */
#include "virt/hypervisor.h"
#include "util/xalloc.h"

#include "virt/domain.h"
#include "scenario/keys.h"
#include "util/log.h"

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct hv {
    virConnectPtr conn;
    struct hv_info info;
    bool test_driver;
    char host_boot[64]; /* the remote host's boot id, "" unknown */
};

/* The message of the last libvirt error raised in this thread. libvirt's
 * own virGetLastError() is reset by the next API call, even one that only
 * reads a name (virStoragePoolGetName() in the arguments of the same
 * log_error() freed the message it pointed to): so it is kept here, as the
 * error is raised. libvirt prints nothing itself (a no-op would do that). */
static _Thread_local char last_error[1024];

static void keep_error(void *opaque, virErrorPtr err)
{
    (void)opaque;
    if (err && err->message)
        snprintf(last_error, sizeof(last_error), "%s", err->message);
}

void hv_init(void)
{
    virInitialize();
    virSetErrorFunc(NULL, keep_error);
}

const char *hv_last_error(void) { return last_error[0] ? last_error : "unknown error"; }

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
    struct hv *hv = xcalloc(1, sizeof(*hv));
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
    const char *type = virConnectGetType(hv->conn);
    hv->test_driver = type && strcmp(type, "TEST") == 0;
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

/* One cheap call over the connection first: without an event loop, a
 * libvirtd that went away is noticed only by the next call. */
bool hv_alive(struct hv *hv)
{
    unsigned long v;
    if (!hv->conn)
        return false;
    virConnectGetLibVersion(hv->conn, &v);
    return virConnectIsAlive(hv->conn) == 1;
}

bool hv_domain_conn_alive(virDomainPtr dom)
{
    return dom && virConnectIsAlive(virDomainGetConnect(dom)) == 1;
}

int hv_reconnect(struct hv *hv, int wait_s)
{
    if (hv_alive(hv))
        return 0;
    if (hv->conn)
        virConnectClose(hv->conn); /* freed once the last handle on it goes */
    hv->conn = NULL;
    for (int i = 0; i <= wait_s; i++) {
        hv->conn = virConnectOpen(hv->info.uri);
        if (hv->conn) {
            log_info("connected to libvirt at %s again (it had gone away)", hv->info.uri);
            return 0;
        }
        sleep(1);
    }
    log_error("Cannot connect to libvirt at '%s' again within %d s: %s", hv->info.uri, wait_s,
              hv_last_error());
    return -1;
}

virDomainPtr hv_lookup(struct hv *hv, const char *name)
{
    return hv->conn ? virDomainLookupByName(hv->conn, name) : NULL;
}
const struct hv_info *hv_get_info(struct hv *hv) { return &hv->info; }

virDomainPtr hv_start(struct hv *hv, const char *xml, const char *name)
{
    /* libvirt's test driver (lifecycle tests) implements no AUTODESTROY */
    unsigned flags = hv->test_driver ? 0 : VIR_DOMAIN_START_AUTODESTROY;
    virDomainPtr dom = virDomainCreateXML(hv->conn, xml, flags);
    if (!dom)
        log_error("Cannot start domain '%s': %s", name, hv_last_error());
    return dom;
}

int hv_is_running(virDomainPtr dom)
{
    int state, reason;
    if (virDomainGetState(dom, &state, &reason, 0) < 0) {
        virErrorPtr err = virGetLastError();
        return err && err->code == VIR_ERR_NO_DOMAIN ? 0 : -1;
    }
    return state == VIR_DOMAIN_RUNNING || state == VIR_DOMAIN_PAUSED ||
           state == VIR_DOMAIN_BLOCKED;
}

void hv_destroy(virDomainPtr dom)
{
    if (!dom)
        return;
    if (!hv_domain_conn_alive(dom)) { /* nothing to ask a lost connection */
        virDomainFree(dom);
        return;
    }
    if (hv_is_running(dom) != 0 && virDomainDestroy(dom) < 0) {
        virErrorPtr err = virGetLastError();
        if (!err || err->code != VIR_ERR_NO_DOMAIN)
            log_warn("Cannot destroy domain '%s': %s", virDomainGetName(dom), hv_last_error());
    }
    virDomainFree(dom);
}

int hv_list_domains(struct hv *hv, const char *prefix, char ***names, size_t *n)
{
    *names = NULL;
    *n = 0;
    virDomainPtr *doms = NULL;
    int count = virConnectListAllDomains(hv->conn, &doms, 0);
    if (count < 0) {
        log_error("Cannot list the domains of '%s': %s", hv->info.uri, hv_last_error());
        return -1;
    }
    for (int i = 0; i < count; i++) {
        const char *name = virDomainGetName(doms[i]);
        if (name && strncmp(name, prefix, strlen(prefix)) == 0) {
            char **grown = xrealloc(*names, (*n + 1) * sizeof(char *));
            *names = grown;
            (*names)[(*n)++] = xstrdup(name);
        }
        virDomainFree(doms[i]);
    }
    free(doms);
    return 0;
}

int hv_domain_owner(struct hv *hv, const char *name, char *machine, size_t len)
{
    machine[0] = '\0';
    virDomainPtr dom = virDomainLookupByName(hv->conn, name);
    if (!dom)
        return 0;
    char *xml = virDomainGetMetadata(dom, VIR_DOMAIN_METADATA_ELEMENT, DOMAIN_OWNER_NS, 0);
    int rc = 0;
    if (!xml) {
        virErrorPtr err = virGetLastError();
        rc = err && err->code == VIR_ERR_NO_DOMAIN_METADATA ? 0 : -1;
    } else {
        xmlDocPtr doc = xmlReadMemory(xml, (int)strlen(xml), "owner.xml", NULL, XML_PARSE_NONET);
        xmlNodePtr root = doc ? xmlDocGetRootElement(doc) : NULL;
        xmlChar *m = root ? xmlGetProp(root, BAD_CAST "machine") : NULL;
        if (m && m[0]) {
            snprintf(machine, len, "%s", (const char *)m);
            rc = 1;
        } else {
            rc = -1;
        }
        xmlFree(m);
        xmlFreeDoc(doc);
        free(xml);
    }
    virDomainFree(dom);
    return rc;
}

int hv_domain_active(struct hv *hv, const char *name)
{
    virDomainPtr dom = virDomainLookupByName(hv->conn, name);
    if (!dom)
        return 0;
    int rc = virDomainIsActive(dom);
    virDomainFree(dom);
    return rc;
}

int hv_remove_domain(struct hv *hv, const char *name)
{
    virDomainPtr dom = virDomainLookupByName(hv->conn, name);
    if (!dom)
        return 0;
    if (virDomainIsActive(dom) == 1 && virDomainDestroy(dom) < 0)
        log_warn("Cannot destroy domain '%s': %s", name, hv_last_error());
    if (virDomainIsPersistent(dom) == 1 && virDomainUndefine(dom) < 0)
        log_warn("Cannot undefine domain '%s': %s", name, hv_last_error());
    virDomainFree(dom);
    dom = virDomainLookupByName(hv->conn, name);
    if (dom) {
        virDomainFree(dom);
        return -1;
    }
    return 0;
}

void hv_set_host_boot_id(struct hv *hv, const char *boot_id)
{
    snprintf(hv->host_boot, sizeof(hv->host_boot), "%s", boot_id);
}

const char *hv_host_boot_id(const struct hv *hv) { return hv->host_boot; }
