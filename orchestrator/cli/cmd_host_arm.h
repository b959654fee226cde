/* cmd_host_arm.h: the arm-... requests of `vbed host` (cmd_host_arm.c). */
#ifndef VBED_CMD_HOST_ARM_H
#define VBED_CMD_HOST_ARM_H

#include <json-c/json.h>

/* argv[0] is the request (what); an exit code (exitcode.h), or arm-exec's
 * program's. */
int cmd_host_arm(const char *what, int argc, char **argv);

#endif
