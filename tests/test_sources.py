"""Reading inputs: a regular file is read one block ahead on a thread, pipes when asked; either
way every byte arrives once, in order, and a broken stream ends in one InputError."""

from __future__ import annotations

import gzip
import json
import os
import random
import threading
import time
from pathlib import Path

import pytest

from verl_doctor.engine.inputs import BLOCK_SIZE, InputError, open_path

OOM = "(WorkerDict pid=9) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB."


def _blocks(path: Path, size: int) -> list[bytes]:
    source = open_path(str(path))
    source.read_ahead = True  # as for a file larger than one 4 MB block
    try:
        return [bytes(buf[:n]) for buf, n in source.filled(size)]  # copied: buffers are reused
    finally:
        source.close()


def test_only_a_regular_file_larger_than_a_block_is_read_ahead(tmp_path: Path) -> None:
    small, large = tmp_path / "small.log", tmp_path / "large.log"
    small.write_bytes(b"x" * 1000)
    with open(large, "wb") as f:
        f.truncate(BLOCK_SIZE + 1)  # sparse: no need to write it
    for path, expected in ((small, False), (large, True)):
        source = open_path(str(path))
        assert source.read_ahead is expected
        source.close()


def test_a_file_read_ahead_arrives_whole_and_in_order(tmp_path: Path) -> None:
    data = random.Random(1).randbytes(10_000)
    path = tmp_path / "run.log"
    path.write_bytes(data)
    blocks = _blocks(path, 1024)
    assert b"".join(blocks) == data
    assert [len(b) for b in blocks] == [1024] * 9 + [784]


def test_a_file_of_exactly_whole_blocks(tmp_path: Path) -> None:
    path = tmp_path / "run.log"
    path.write_bytes(b"x" * 4096)
    assert _blocks(path, 1024) == [b"x" * 1024] * 4


def test_a_fifo_is_read_when_asked(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    data = b"line\n" * 5000

    def write() -> None:
        with open(fifo, "wb") as f:
            f.write(data)

    writer = threading.Thread(target=write)
    writer.start()
    source = open_path(str(fifo))
    try:
        assert not source.read_ahead
        assert b"".join(bytes(b[:n]) for b, n in source.filled(4096)) == data
    finally:
        source.close()
        writer.join()


def test_truncated_gzip_read_ahead_gives_its_blocks_then_one_error(tmp_path: Path) -> None:
    packed = gzip.compress(random.Random(2).randbytes(200_000))
    path = tmp_path / "run.log.gz"
    path.write_bytes(packed[: len(packed) // 2])
    source = open_path(str(path))
    source.read_ahead = True
    got = b""
    with pytest.raises(InputError, match="truncated"):
        for buf, n in source.filled(16 * 1024):
            got += bytes(buf[:n])
    source.close()
    assert 0 < len(got) < 200_000


def test_stopping_early_leaves_no_reader_behind(tmp_path: Path) -> None:
    path = tmp_path / "run.log"
    path.write_bytes(b"y" * 100_000)
    before = threading.active_count()
    source = open_path(str(path))
    source.read_ahead = True
    blocks = source.filled(1024)
    next(blocks)
    blocks.close()  # the consumer gives up with a read in flight
    source.close()
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert threading.active_count() == before


def test_file_and_pipe_give_the_same_line_numbers_over_many_blocks(run_cli, tmp_path: Path) -> None:
    """12 MB: several 4 MB blocks, each read ahead while the one before is scanned."""
    healthy = "(TaskRunner pid=1) step:{} - actor/pg_loss:0.1 - critic/score/mean:0.5\n"
    lines = [healthy.format(i) for i in range(170_000)]
    for at in (3, 60_001, 169_998):
        lines[at] = OOM + "\n"
    path = tmp_path / "big.log"
    path.write_text("".join(lines))
    from_file = run_cli(["explain", "--format", "json", str(path)])
    from_pipe = run_cli(["explain", "--format", "json"], stdin=path.read_bytes())
    for proc in (from_file, from_pipe):
        (finding,) = json.loads(proc.stdout)["findings"]
        assert (finding["rule"], finding["first_line"], finding["count"]) == ("FLOW004", 4, 3)
    evidence = [
        [e["line"] for e in json.loads(p.stdout)["findings"][0]["evidence"]] for p in (from_file, from_pipe)
    ]
    assert evidence[0] == evidence[1]
