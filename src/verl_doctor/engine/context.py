"""Run context: what the log says about the run (versions, GPUs, entry point, Hydra overrides).

Read from verl's `scripts/diagnose.py` banner, pip listings, vLLM's engine banner, NCCL and
CUDA version strings, site-packages paths in frames, Hydra's `Error executing job with
overrides: [...]` line and the launch command. Fix steps use it (version-bound steps, "you set
key=value" notes).
"""

from __future__ import annotations

import re
import shlex

from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.engine.normalize import Line
from verl_doctor.engine.spread_lines import list_end

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from re import Match
    from typing import Any

_MAX_OVERRIDES = 400
_NAMED_KEPT = 512  # texts whose named keys are remembered
_MAX_IDLE = 4096
_MAX_VALUE = 200
_PACKAGES = "|".join(
    ("verl", "torch", "vllm", "sglang", "ray", "transformers", "flash[-_]attn", "megatron[-_]core")
    + ("tensordict", "peft", "deepspeed", "accelerate")
)
_SECTION = lazy_compile(
    r"^-{3,}\s*(?P<name>Python|Pip|verl|Platform|Hardware|Environment|System) Info\s*-{3,}"
)
_BANNER_VERSION = lazy_compile(r"^Version\s+:\s*(?P<v>\d[\w.+-]*)")
_BANNER_PKG = lazy_compile(rf"^(?P<pkg>{_PACKAGES})\s*:\s*(?P<v>\d[\w.+-]*)\s*$")
_PIN = lazy_compile(rf"(?:^|\s)(?P<pkg>{_PACKAGES})(?:==|\s{{2,}}|\s+version\s+)(?P<v>\d+\.\d+[\w.+-]*)")
_VLLM_ENGINE = lazy_compile(r"LLM engine \(v(?P<v>\d+\.\d+[\w.+-]*)\)")
_NCCL = lazy_compile(r"NCCL version (?P<v>\d+\.\d+\.\d+)")
_CUDA_RUNTIME = lazy_compile(r"CUDA (?:Runtime\s*:|Version:)\s*(?P<v>\d+\.\d+)")
_TORCH_CU = lazy_compile(r"\b(?P<v>2\.\d+\.\d+)\+cu(?P<cu>1\d{2,3})\b")
_PYTHON_PATH = lazy_compile(r"python(?P<v>3\.\d{1,2})/(?:site|dist)-packages/")
_GPU_MODEL = lazy_compile(
    r"\b(?P<gpu>(?:NVIDIA|Tesla)\s+(?:GeForce\s+)?(?:RTX\s+)?[A-Z]{1,3}\d{1,4}[A-Za-z0-9-]*(?:\s+\d+GB)?(?:\s+HBM\d)?)"
)
_GPU_COUNT = lazy_compile(r"GPU Count\s*:\s*(?P<n>\d+)")
_GPU_CAPACITY = lazy_compile(r"has a total capacity of (?P<cap>[\d.]+ [GM]iB)")
_ENTRY = lazy_compile(r"-m\s+(?P<entry>(?:verl|recipe)\.[\w.]+)")
# A Python script run with arguments, and the key that marks verl's overrides among them.
_SCRIPT = lazy_compile(r"(?:^|\s)(?:\S*/)?python[\d.]*\s+(?:-u\s+)?\S+\.py(?=\s)")
_ACTOR_KEY = "actor_rollout_ref."
_OVERRIDES = lazy_compile(r"Error executing job with overrides: (?P<list>\[.*\])")
# An environment variable the launch shell exports (`export VLLM_KV_CACHE_LAYOUT=hnd`, at a
# prompt or in bash's `set -x` trace): a setting of the run as much as an override is.
_EXPORT = lazy_compile(
    r"(?:^|[#$]\s*|^\+{1,4}\s+)export\s+(?P<name>[A-Z_][A-Z0-9_]{1,60})=(?P<value>\"[^\"]*\"|'[^']*'|\S*)"
)
_MAX_EXPORTS = 200
_NAME_TOKEN = lazy_compile(r"[A-Za-z_][\w.]*\w")
_CAMEL = lazy_compile(r"[A-Z][a-z0-9]+[A-Z]\w*")  # `TiledMLP`, `FusedKernels`
_CAMEL_CUT = lazy_compile(r"(?<=[a-z0-9])(?=[A-Z])")
# A value chosen by name (`token_k1`, `grpo_passk`, `seq-mean-token-sum`): a check that names it
# refuses that choice. Plain words (`true`, `auto`, `none`) and numbers name no choice.
_CHOSEN_NAME = lazy_compile(r"[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)+")


class ContextCollector:
    """Accumulates context from normalized lines; bounded in size."""

    def __init__(self) -> None:
        self.versions: dict[str, str] = {}
        self.gpu: dict[str, Any] = {}
        self.overrides: dict[str, str] = {}
        self.exported: dict[str, str] = {}  # environment variables the launch shell exported
        # Values the log exported under a credential's name: masked wherever the report shows them.
        self.secret_values: set[str] = set()
        self.deleted: set[str] = set()  # parts of the config the run deleted (`~critic`)
        self.override_line: Line | None = None  # the first line overrides were read from
        self.entry_point: str | None = None
        self.command: str | None = None
        self._section: str | None = None
        self._last_command = ""
        self._idle_on_repeat: set[str] = set()  # texts a second reading would change nothing by
        # The keys each text named, as of the overrides' version then: an exception every rank
        # repeats asks once (the version moves whenever an override is set or changed).
        self._overrides_version = 0
        self._named: dict[str, tuple[int, list[str]]] = {}

    def add(self, line: Line) -> None:
        text = line.text
        if text in self._idle_on_repeat and "Error executing job with overrides" not in line.raw:
            return
        sec = _SECTION.match(text)
        if sec:
            self._section = sec.group("name")
            return
        if self._section:
            self._banner(text)
        for pin in _PIN.finditer(text):
            self._version(pin.group("pkg"), pin.group("v"))
        m: Match[str] | None
        for pattern, name in ((_VLLM_ENGINE, "vllm"), (_NCCL, "nccl")):
            m = pattern.search(text)
            if m:
                self._version(name, m.group("v"))
        m = _CUDA_RUNTIME.search(text)
        if m:
            self._version("cuda", m.group("v"))
        m = _TORCH_CU.search(text)
        if m and ("torch" in text or "+cu" in text):
            cu = m.group("cu")
            self._version("cuda", f"{cu[:-1]}.{cu[-1]}")
        m = _PYTHON_PATH.search(text)
        if m:
            self.versions.setdefault("python", m.group("v"))
        self._gpus(text)
        if "export " in text:
            self._export(text)
        if "verl." in text or "recipe." in text or _ACTOR_KEY in text:
            self._command(line)
        elif not (_BANNER_VERSION.match(text) or _BANNER_PKG.match(text) or _GPU_COUNT.search(text)):
            # Everything this text did keeps the first value seen (versions, GPU model and
            # memory): reading it again changes nothing, so a repeat is skipped. Not so for
            # banners, GPU counts, commands and sections, which later lines may overwrite.
            if len(self._idle_on_repeat) >= _MAX_IDLE:
                self._idle_on_repeat.clear()
            self._idle_on_repeat.add(text)
        if "Error executing job with overrides" in line.raw:
            listed = self._hydra_overrides(line.raw)
            # (Hydra's list is all the run set, even when it is empty: `overrides: []`)
            if (self.overrides or listed) and self.override_line is None:
                self.override_line = line

    def _export(self, text: str) -> None:
        m = _EXPORT.search(text)
        if m is None or (len(self.exported) >= _MAX_EXPORTS and m["name"] not in self.exported):
            return
        from verl_doctor.engine.redact import is_secret_value

        value = m["value"].strip("'\"")
        if is_secret_value(m["name"], value) and len(self.secret_values) < _MAX_EXPORTS:
            self.secret_values.add(value)
        self.exported[m["name"]] = value[:_MAX_VALUE]

    def _banner(self, text: str) -> None:
        m = _BANNER_VERSION.match(text)
        if m and self._section in ("Python", "verl"):
            self._version("python" if self._section == "Python" else "verl", m.group("v"), force=True)
            return
        m = _BANNER_PKG.match(text)
        if m:
            self._version(m.group("pkg"), m.group("v"), force=True)

    def _version(self, pkg: str, version: str, force: bool = False) -> None:
        pkg = pkg.lower().replace("_", "-")
        if force or pkg not in self.versions:
            self.versions[pkg] = version[:40]

    def _gpus(self, text: str) -> None:
        m = _GPU_MODEL.search(text)
        if m and "model" not in self.gpu:
            self.gpu["model"] = m.group("gpu").strip()
        m = _GPU_COUNT.search(text)
        if m:
            self.gpu["count"] = int(m.group("n"))
        m = _GPU_CAPACITY.search(text)
        if m and "memory" not in self.gpu:
            self.gpu["memory"] = m.group("cap")

    def _command(self, line: Line) -> None:
        m = _ENTRY.search(line.text)
        # (a script of the user's given verl's overrides composes verl's config from them: those
        # that name a part of verl's config are settings of the run)
        found = m or _SCRIPT.search(line.text)
        if found is None or line.text == self._last_command:
            return  # a relaunch echoes the same command: parsing it again adds nothing
        self._last_command = line.text
        if m is not None and self.entry_point is None:
            self.entry_point = m.group("entry")
            self.command = line.text[:2000]
        end = found.end()
        try:
            tokens = shlex.split(line.text[end:], posix=True)
        except ValueError:
            tokens = line.text[end:].split()
        overrides = [t for t in tokens if "=" in t and not t.startswith("-")]
        if m is None:
            from verl_doctor.catalog.verl_keys import known

            overrides = [t for t in overrides if known(t.partition("=")[0].split(".", 1)[0])]
        self._add_overrides(overrides)
        if self.overrides and self.override_line is None:
            self.override_line = line

    def _hydra_overrides(self, raw: str) -> bool:
        """Read Hydra's printed override list; whether there was a whole list to read."""
        m = _OVERRIDES.search(raw)
        if not m:
            return False
        text = m.group("list")
        end = list_end(text)
        try:
            import ast  # only for a printed override list

            items = ast.literal_eval(text[: end + 1]) if end >= 0 else None
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return False
        if not isinstance(items, list):
            return False
        self._add_overrides(str(i) for i in items)
        return True

    def _add_overrides(self, items: Any) -> None:
        for item in items:
            key, _, value = item.partition("=")
            key = key.lstrip("+~")
            if not re.fullmatch(r"[A-Za-z_][\w.\-]*", key):
                continue
            if len(self.overrides) >= _MAX_OVERRIDES and key not in self.overrides:
                return
            if self.overrides.get(key) != value[:_MAX_VALUE]:
                self._overrides_version += 1
            self.overrides[key] = value[:_MAX_VALUE]
            if item.lstrip("+").startswith("~"):
                self.deleted.add(key)

    def set_keys_named_in(self, text: str) -> list[str]:
        """The keys this run set (command line, Hydra's override list) that `text` names: by
        their last part (`staleness_threshold`), a dotted tail (`rollout_correction.rollout_rs`),
        or a section below the top level (`tiled_mlp`, also written as the class `TiledMLP`). A
        check that names a key the user set is about that setting, whether or not the key is one
        of verl's shipped config keys. A value chosen by name that `text` names (`token_k1`)
        names its key too."""
        if not self.overrides:
            return []
        asked = self._named.get(text)
        if asked is not None and asked[0] == self._overrides_version:
            return list(asked[1])
        found = self._set_keys_named_in(text)
        if len(self._named) >= _NAMED_KEPT:
            self._named.clear()
        self._named[text] = (self._overrides_version, found)
        return list(found)

    def _set_keys_named_in(self, text: str) -> list[str]:
        from verl_doctor.catalog.verl_keys import is_option_name  # lazily: start-up time

        tokens: set[str] = set()
        for token in _NAME_TOKEN.findall(text):  # `self.config.a.b`: also `config.a.b`, `a.b`, `b`
            parts = token.split(".")
            tokens.update(".".join(parts[i:]) for i in range(len(parts)))
            if _CAMEL.fullmatch(token):
                tokens.add(_CAMEL_CUT.sub("_", token).lower())
        found = []
        for key in self.overrides:
            parts = key.split(".")
            named = any(
                ".".join(parts[i:]) in tokens for i in range(max(0, len(parts) - 3), len(parts) - 1)
            ) or any(is_option_name(part) and part in tokens for part in parts[1:])
            if (
                named
                or self._value_named(key, text)
                or self._set_as_written(key, text)
                or _refusal_subject(key, text)
            ):
                found.append(key)
        return found

    def _set_as_written(self, key: str, text: str) -> bool:
        """Whether `text` writes the key's last part with the value this run gave it
        (`When temperature=0, n_samples must be 1` for `rollout.temperature=0`): a plain word
        as a name (`temperature`) is that setting when its value comes with it."""
        value = self.overrides[key].strip("'\"")
        leaf = key.rpartition(".")[2].lstrip("+~")
        return (
            bool(value)
            and re.search(rf"\b{re.escape(leaf)}\s*[=:]\s*{re.escape(value)}(?![\w.])", text) is not None
        )

    def _value_named(self, key: str, text: str) -> bool:
        """Whether `text` names the value this run chose by name for `key`; the name of the
        user's own function or class (custom_reward_function.name) is code, not a choice."""
        value = self.overrides[key]
        if "custom" in key:
            return False
        # (a dict or list given whole, `hf_overrides={rope_scaling:{rope_type:dynamic_ntk}}`:
        # the names chosen inside it)
        chosen = _CHOSEN_NAME.findall(value) if value.startswith(("{", "[")) else [value]
        return any(_named_in(name, text) for name in chosen if _CHOSEN_NAME.fullmatch(name))

    def chosen_values_named_in(self, text: str) -> list[str]:
        """The keys whose value, chosen by name on this run's command line, `text` names."""
        return [key for key in self.overrides if self._value_named(key, text)]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.versions:
            out["versions"] = dict(sorted(self.versions.items()))
        gpu = dict(self.gpu)
        nodes, per_node = self.overrides.get("trainer.nnodes"), self.overrides.get("trainer.n_gpus_per_node")
        if "count" not in gpu and per_node and per_node.isdigit():
            gpu["requested"] = int(per_node) * (int(nodes) if nodes and nodes.isdigit() else 1)
        if gpu:
            out["gpu"] = gpu
        if self.entry_point:
            out["entry_point"] = self.entry_point
        if self.overrides:
            out["overrides"] = self.overrides
        return out


# A sentence that opens with what it refuses (`betas must be either both floats or both Tensors`).
_REFUSED_SUBJECT = re.compile(
    r"(?:^|[.:]\s+)(?P<subject>[A-Za-z]\w*(?: [a-z]\w*){0,3}) "
    r"(?:must|should|has to|cannot|can't|is required)\b"
)


def _named_in(name: str, text: str) -> bool:
    """Whether `text` names a value chosen by name, as a message may spell it (`trtllm_mha` is
    `TRTLLM MHA` in its words)."""
    spelt = r"[_\- ]".join(re.escape(part) for part in re.split(r"[_-]", name))
    return re.search(rf"\b{spelt}\b", text, re.I) is not None


def _refusal_subject(key: str, text: str) -> bool:
    """Whether a refusal opens with the key's last part as its subject: a plain word (`betas`)
    is then that setting, as an option's own name (`ppo_mini_batch_size`) always is, and so is
    the name written in words (`Block size must be a multiple of 16` for `block_size`)."""
    leaf = key.rpartition(".")[2].lstrip("+~").lower()
    for m in _REFUSED_SUBJECT.finditer(text):
        words = m.group("subject").lower().split()
        if any("_".join(words[i:]) == leaf for i in range(len(words))):
            return True
    return False
