/* cmd_host_arm.h: the arm-... requests of `vbed host` (cmd_host_arm.c),
 * and the reply both halves of the helper print. */
#ifndef VBED_CMD_HOST_ARM_H
#define VBED_CMD_HOST_ARM_H

#include <json-c/json.h>

/* A reply of `vbed host`: the object with "vbed_host" set; printed on
 * stdout as one line, an exit code (cmd_host.c). */
json_object *cmd_host_reply_new(void);
int cmd_host_reply(json_object *o);

/* argv[0] is the request (what); an exit code (exitcode.h), or arm-exec's
 * program's. */
int cmd_host_arm(const char *what, int argc, char **argv);

#endif
