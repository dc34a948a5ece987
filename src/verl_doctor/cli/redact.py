"""`verl-doctor redact [FILE...]`: a log with its secrets masked, to attach to an issue or keep
as a CI artifact. Same masking as the report; every other byte is passed through unchanged
(gzip and UTF-16 input come out as plain UTF-8 text)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from verl_doctor.cli.stderr import error_line as _err
from verl_doctor.common.exit_codes import ExitCode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

    from verl_doctor.cli.options import Values


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def main(values: Values) -> int:
    return redact_files(values.files, values.output)


def redact_files(files: Sequence[str], output: str | None) -> int:
    """Redact each input (stdin for none or '-') into `output` (stdout when None); returns 0,
    or 2 when an input could not be read (to its end)."""
    from verl_doctor.engine.inputs import InputError, open_path

    inputs = list(files) or ["-"]
    if output is not None:
        clash = next((f for f in inputs if f != "-" and _same_file(f, output)), None)
        if clash is not None:
            _err(f"redact: -o {output} is the input {clash}: write to another file")
            return ExitCode.USAGE
        try:
            out: BinaryIO = open(output, "wb")  # noqa: SIM115 - closed below
        except OSError as exc:
            _err(f"cannot write {output}: {(exc.strerror or str(exc)).lower()}")
            return ExitCode.USAGE
    else:
        out = sys.stdout.buffer
    status = ExitCode.OK
    try:
        for name in inputs:
            try:
                source = open_path(name)
            except InputError as exc:
                _err(str(exc))
                status = ExitCode.USAGE
                continue
            try:
                _copy(source.filled(), out)
            except InputError as exc:  # what came before a cut was written
                _err(str(exc))
                status = ExitCode.USAGE
            finally:
                source.close()
    finally:
        if output is not None:
            out.close()
        else:
            out.flush()
    return status


def _copy(blocks: object, out: BinaryIO) -> None:
    from verl_doctor.engine.redact import LogRedactor

    redactor = LogRedactor()
    rest = b""
    for buf, n in blocks:  # type: ignore[attr-defined]
        data = rest + bytes(buf[:n])
        cut = data.rfind(b"\n") + 1  # redact whole lines: a secret never spans two pieces
        rest = data[cut:]
        if cut:
            out.write(
                redactor.feed(data[:cut].decode("utf-8", "surrogateescape")).encode(
                    "utf-8", "surrogateescape"
                )
            )
    if rest:
        out.write(redactor.feed(rest.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape"))
