/* layout.c: naming of domains and volumes (see layout.h). */
#include "virt/layout.h"

#include "util/paths.h"
#include "results/session.h"

#include <stdio.h>
#include <string.h>

void layout_image(struct image_layout *im, const char *pool_path, const char *image_id)
{
    snprintf(im->base_vol, sizeof(im->base_vol), "vbed-image-%s.qcow2", image_id);
    snprintf(im->kernel_vol, sizeof(im->kernel_vol), "vbed-image-%s.vmlinuz", image_id);
    snprintf(im->initrd_vol, sizeof(im->initrd_vol), "vbed-image-%s.initrd", image_id);
    path_join(im->base_path, sizeof(im->base_path), pool_path, im->base_vol);
    path_join(im->kernel_path, sizeof(im->kernel_path), pool_path, im->kernel_vol);
    path_join(im->initrd_path, sizeof(im->initrd_path), pool_path, im->initrd_vol);
}

void layout_runid(char *buf, unsigned long len, const char *session, unsigned seq)
{
    snprintf(buf, len, "%s-%03u", session, seq);
}

void layout_guest(struct guest_layout *g, const char *pool_path, const char *runid,
                  const char *arm, int n, const struct run_config *cfg)
{
    domain_name(g->name, sizeof(g->name), runid, arm, n);
    snprintf(g->session, sizeof(g->session), "%.*s", (int)strcspn(runid, "-"), runid);
    snprintf(g->root_vol, sizeof(g->root_vol), "%s" LAYOUT_ROOT_SUFFIX, g->name);
    if (cfg->filesystem == FS_TMPFS)
        g->data_vol[0] = '\0';
    else
        snprintf(g->data_vol, sizeof(g->data_vol), "%s-data.%s", g->name,
                 key_choice("disk_format", cfg->disk_format));
    snprintf(g->config_vol, sizeof(g->config_vol), "%s-config.tar", g->name);
    snprintf(g->console_vol, sizeof(g->console_vol), "%s-console.log", g->name);
    snprintf(g->tables_vol, sizeof(g->tables_vol), "%s-tables.tar", g->name);
    path_join(g->root_path, sizeof(g->root_path), pool_path, g->root_vol);
    g->data_path[0] = '\0';
    if (g->data_vol[0])
        path_join(g->data_path, sizeof(g->data_path), pool_path, g->data_vol);
    g->n_more_data = 0;
    for (long long k = 2; g->data_vol[0] && k <= cfg->data_disks && k <= LAYOUT_MAX_DATA_DISKS; k++) {
        int i = g->n_more_data++;
        char vol[LAYOUT_NAME_MAX];
        snprintf(vol, sizeof(vol), "%s-data%lld.%s", g->name, k,
                 key_choice("disk_format", cfg->disk_format));
        memcpy(g->more_data_vol[i], vol, sizeof(vol));
        path_join(g->more_data_path[i], sizeof(g->more_data_path[i]), pool_path, g->more_data_vol[i]);
    }
    path_join(g->config_path, sizeof(g->config_path), pool_path, g->config_vol);
    path_join(g->console_path, sizeof(g->console_path), pool_path, g->console_vol);
    path_join(g->tables_path, sizeof(g->tables_path), pool_path, g->tables_vol);
}

void layout_domain_spec(struct domain_spec *spec, const struct guest_layout *g,
                        const struct image_layout *im, const struct run_config *cfg,
                        int virt_type, const char *cmdline)
{
    *spec = (struct domain_spec){
        .name = g->name,
        .virt_type = virt_type,
        .memory = cfg->memory,
        .vcpus = cfg->vcpus,
        .kernel = im->kernel_path,
        .initrd = im->initrd_path,
        .cmdline = cmdline,
        .root_path = g->root_path,
        .data_path = g->data_vol[0] ? g->data_path : NULL,
        .n_more_data = g->n_more_data,
        .data_format = cfg->disk_format,
        .data_cache = cfg->disk_cache,
        .data_io = cfg->disk_io,
        .config_path = g->config_path,
        .console_log = g->console_path,
        .emulator_pin = -1,
        .session = g->session,
        .machine = session_machine(),
    };
    for (int i = 0; i < g->n_more_data; i++)
        spec->more_data_path[i] = g->more_data_path[i];
}
