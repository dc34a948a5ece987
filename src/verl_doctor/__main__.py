"""`python -m verl_doctor ...` runs the CLI."""

from verl_doctor.cli.main import console_main

console_main()
