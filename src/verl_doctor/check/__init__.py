"""Checking a verl command before launch: one module per job.

parse       the command line, launch script or config file -> invocations and overrides
override    one Hydra override, read as Hydra's grammar reads it (CFG016)
config      verl's defaults for the version + the overrides, Hydra's way; interpolations
keys        unknown / appended / deleted keys (CFG005, CFG016)
values      types, choices and `???` (CFG014, CFG011)
arithmetic  verl's validate_config: batch sizes, micro-batch keys (CFG004, CFG011), parallel sizes (CFG010)
paths       model folders, data files, custom modules by `ast` (CFG017, CFG013, CFG008)
limits      what fails only once workers run: token budgets, context length, heads (warnings)
machine     `--here`: GPUs asked for vs this machine (CFG003)
run         all of the above in verl's order; findings turns issues into the shared report
"""
