"""Prefilter literals: derived correctly, selective on healthy logs, covered by the anchors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from verl_doctor.catalog.literals import INTERNAL_LITERALS, choose_anchors, required_literals
from verl_doctor.catalog.load import load_catalog

MAX_SHARE = 0.01  # a literal may hit at most 1% of the lines of a healthy log


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"CUDA out of memory\. Tried", {"CUDA out of memory. Tried"}),
        (r"Total available GPUs (?P<a>[\d.]+) is less than", {"Total available GPUs "}),
        (r"(?:vllm|sglang) version \S+ not supported", {" not supported"}),
        (
            r"No module named '(?:tensordict|codetiming)'",
            {"No module named 'tensordict'", "No module named 'codetiming'"},
        ),
        (
            r"(?:Segmentation fault|Aborted) \(core dumped\)",
            {"Segmentation fault (core dumped)", "Aborted (core dumped)"},
        ),
        (r"(?:ImportError|ModuleNotFoundError)", {"ImportError", "ModuleNotFoundError"}),
        (r"(?i)out of memory", None),
        (r"\d+ x \d+", None),
    ],
)
def test_required_literals(pattern: str, expected: set[str] | None) -> None:
    got = required_literals(pattern)
    assert (set(got) if got is not None else None) == expected


def _healthy_lines(tmp_dir: Path | None = None) -> list[str]:
    """The healthy fixtures plus a 4 MB generated healthy run (the mix of a real log)."""
    lines: list[str] = []
    for path in sorted((FIXTURES / "healthy").glob("*.log")):
        lines += [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    if tmp_dir is not None:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from generate_log import generate

        out = tmp_dir / "healthy.log"
        assert generate(out, 4, seed=3, errors=[]) == []
        lines += out.read_text(encoding="utf-8").replace("\r", "\n").splitlines()
    return lines


def test_every_rule_literal_is_selective_on_healthy_logs(tmp_path: Path) -> None:
    catalog = load_catalog(include_user=False, use_cache=False)
    lines = _healthy_lines(tmp_path)
    internal = {lit for lits in INTERNAL_LITERALS.values() for lit in lits}
    offenders = []
    for lit, targets in zip(catalog.literals, catalog.targets, strict=True):
        if lit in internal and all(t.rule < 0 for t in targets):
            continue
        share = sum(lit in ln for ln in lines) / len(lines)
        if share > MAX_SHARE:
            rules = sorted({catalog.rules[t.rule].id for t in targets if t.rule >= 0})
            offenders.append(f"{lit!r} ({', '.join(rules)}): {share:.1%} of healthy lines")
    assert not offenders, "\n".join(offenders)


def test_every_signature_has_a_prefilter_target() -> None:
    catalog = load_catalog(include_user=False, use_cache=False)
    covered = {(t.rule, t.index) for ts in catalog.targets for t in ts if t.kind == "sig"}
    for ri, rule in enumerate(catalog.rules):
        for si in range(len(rule.signatures)):
            assert (ri, si) in covered, f"{rule.id} signature {si} has no literal"


def test_anchors_cover_every_literal() -> None:
    catalog = load_catalog(include_user=False, use_cache=False)
    assert len(catalog.anchors) < len(catalog.literals)
    for lit in catalog.literals:
        assert any(a in lit for a in catalog.anchors), lit


def test_choose_anchors_avoids_background_text() -> None:
    lits = ["CUDA out of memory", "NPU out of memory", "HIP out of memory", "the process group"]
    anchors = choose_anchors(lits, background="process group ok\n")
    assert all(any(a in lit for a in anchors) for lit in lits)
    assert all(a not in "process group ok" for a in anchors)
    assert len(anchors) < len(lits)


def test_internal_literals_are_rare_in_healthy_logs() -> None:
    lines = _healthy_lines()
    for kind in ("exception", "envelope"):
        for lit in INTERNAL_LITERALS[kind]:
            share = sum(lit in ln for ln in lines) / len(lines)
            assert share <= 0.05, (kind, lit, share)


def test_background_file_is_shipped() -> None:
    import verl_doctor

    assert (Path(verl_doctor.__file__).with_name("data") / "background.txt").is_file()


def test_anchor_groups_fit_the_simd_searcher_and_keep_every_anchor() -> None:
    from verl_doctor.catalog.literals import FINGERPRINT, MAX_ANCHORS, anchor_groups

    anchors = load_catalog(include_user=False, use_cache=False).anchors
    groups = anchor_groups(anchors)
    assert sorted(a for g in groups for a in g) == sorted(anchors)
    for group in groups:
        assert len(group) <= MAX_ANCHORS
        # one fingerprint length per group: a shorter anchor would loosen every other's
        assert len({min(len(a.encode()), FINGERPRINT) for a in group}) == 1


@pytest.mark.parametrize("count", [16, 21, 32, 33, 50, 64])
def test_anchor_groups_put_alike_fingerprints_in_one_bucket(count: int) -> None:
    """The searcher puts anchor i of a group in bucket B - 1 - i % B (B = 8 up to 32 anchors,
    else 16): each bucket must get a run of neighbours in fingerprint order."""
    from verl_doctor.catalog.literals import anchor_groups

    anchors = [f"{chr(65 + i // 3)}{chr(97 + i % 3)}-anchor" for i in range(count)]  # in order
    (group,) = anchor_groups(anchors)
    assert sorted(group) == sorted(anchors)
    buckets = 8 if count <= 32 else 16
    members: dict[int, list[int]] = {}
    for i, a in enumerate(group):
        members.setdefault(buckets - 1 - i % buckets, []).append(sorted(anchors).index(a))
    for ranks in members.values():
        assert ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def test_choose_anchors_avoid_starts_common_in_healthy_text() -> None:
    """The searcher verifies every position where an anchor's first bytes fit: an anchor
    starting like everyday text ("torch") would be verified all the time."""
    background = "(WorkerDict pid=7) torch.compile torch_dtype torch.float32 torch.cuda\n" * 50
    anchors = choose_anchors(["torch.OutOfMemoryError"], background)
    assert anchors and all(not a.startswith(("torc", "orch", "rch.", "ch.")) for a in anchors)
    assert all(a in "torch.OutOfMemoryError" for a in anchors)
