-- vbed_oltp.lua: sysbench 1.0.20's bundled OLTP workloads, with table options.
--
-- sysbench 1.0.20 cannot take table options on its command line: its
-- oltp_common.lua appends the global mysql_table_options to CREATE TABLE,
-- but nothing ever sets that global. vbed sets it from the environment
-- (VBED_TABLE_OPTIONS, e.g. "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8" or
-- "PAGE_COMPRESSED=1"), so that the tables are created compressed by
-- sysbench's own prepare, then runs the bundled script VBED_WORKLOAD.
local workload = os.getenv("VBED_WORKLOAD")
if workload == nil or not workload:match("^oltp_[a-z_]+$") then
   error("vbed_oltp.lua: VBED_WORKLOAD must name a bundled oltp_* script")
end
mysql_table_options = os.getenv("VBED_TABLE_OPTIONS") or ""
dofile("/usr/share/sysbench/" .. workload .. ".lua")
