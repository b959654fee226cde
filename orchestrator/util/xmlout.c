/* xmlout.c: XML through libxml2's text writer (see xmlout.h). */
#include "util/xmlout.h"

#include "util/log.h"
#include "util/xalloc.h"

#include <string.h>

int xo_start(xmlTextWriterPtr w, const char *el) { return xmlTextWriterStartElement(w, BAD_CAST el); }
int xo_end(xmlTextWriterPtr w) { return xmlTextWriterEndElement(w); }
int xo_text(xmlTextWriterPtr w, const char *text) { return xmlTextWriterWriteString(w, BAD_CAST text); }

int xo_attr(xmlTextWriterPtr w, const char *name, const char *value)
{
    return xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST value);
}

int xo_text_el(xmlTextWriterPtr w, const char *el, const char *value)
{
    return xmlTextWriterWriteElement(w, BAD_CAST el, BAD_CAST value);
}

int xo_empty_el(xmlTextWriterPtr w, const char *el)
{
    if (xo_start(w, el) < 0)
        return -1;
    return xo_end(w);
}

char *xmlout_render(const char *what, int (*write)(xmlTextWriterPtr w, const void *arg),
                    const void *arg)
{
    char *out = NULL;
    xmlBufferPtr buf = xmlBufferCreate();
    xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
    if (!w) {
        log_error("Cannot create an XML writer for %s.", what);
        goto cleanup;
    }
    xmlTextWriterSetIndent(w, 1);
    xmlTextWriterSetIndentString(w, BAD_CAST "  ");
    if (xmlTextWriterStartDocument(w, NULL, NULL, NULL) < 0 || write(w, arg) < 0 ||
        xmlTextWriterEndDocument(w) < 0) {
        log_error("Cannot write the XML of %s.", what);
        goto cleanup;
    }
    xmlFreeTextWriter(w); /* flushes into buf */
    w = NULL;
    /* drop the declaration: libvirt does not need it */
    const char *xml = (const char *)xmlBufferContent(buf);
    const char *body = strchr(xml, '>');
    body = strncmp(xml, "<?xml", 5) == 0 && body ? body + 1 : xml;
    while (*body == '\n')
        body++;
    out = xstrdup(body);
cleanup:
    if (w)
        xmlFreeTextWriter(w);
    if (buf)
        xmlBufferFree(buf);
    return out;
}
