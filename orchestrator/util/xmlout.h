/* xmlout.h: libvirt XML (domains, pools, volumes) written with libxml2's
 * text writer, so that every value is escaped. A writer function fills an
 * xmlTextWriter; xmlout_render turns it into a string. The shorthands
 * return < 0 on failure, and XO() leaves the function at the first one. */
#ifndef VBED_XMLOUT_H
#define VBED_XMLOUT_H

#include <libxml/xmlwriter.h>

#define XO(call)                                                                                   \
    do {                                                                                           \
        if ((call) < 0)                                                                            \
            goto fail;                                                                             \
    } while (0)

int xo_start(xmlTextWriterPtr w, const char *el);
int xo_end(xmlTextWriterPtr w);
int xo_attr(xmlTextWriterPtr w, const char *name, const char *value);
int xo_text(xmlTextWriterPtr w, const char *text);
/* <el>value</el> */
int xo_text_el(xmlTextWriterPtr w, const char *el, const char *value);
/* <el/> */
int xo_empty_el(xmlTextWriterPtr w, const char *el);

/* Run write(w, arg) into an indented document without XML declaration
 * (malloc'd), or NULL after reporting that the XML of `what` failed. */
char *xmlout_render(const char *what, int (*write)(xmlTextWriterPtr w, const void *arg),
                    const void *arg);

#endif
