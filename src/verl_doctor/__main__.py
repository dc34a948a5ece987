"""`python -m verl_doctor ...` runs the CLI."""

from .entry import console_main

console_main()
