"""What a normalized line is, apart from rule hits: an exception, a traceback frame, a Ray or
Hydra envelope around another error, or an echo that only points elsewhere.

The prefilter literals that bring these lines to the analyzer are `INTERNAL_LITERALS`, in the
catalog (which compiles them with the rules' own).
"""

from __future__ import annotations

import re
from functools import lru_cache

from verl_doctor.common.records import record
from verl_doctor.common.resources import data_path

_EXCEPTION = re.compile(
    r"^(?P<qual>(?:[A-Za-z_]\w*\.){0,6})"
    r"(?P<type>[A-Z]\w*(?:Error|Exception|Interrupt|Exit|Failure|Fault)|Exception|KeyboardInterrupt|SystemExit|"
    # any class of a library's exceptions module (`torch._inductor.exc.TritonMissing`)
    r"StopIteration|(?:(?<=\.exc\.)|(?<=\.errors\.)|(?<=exceptions\.))[A-Z]\w*(?=:))"
    r"(?:\((?P<inner>[\w.]+)\))?(?P<rest>:.*|\s*$)"
)
_ENVELOPE = re.compile(
    r"(?:RayTaskError|RayActorError)\((?P<inner>[\w.]+)\)\s*:\s*"
    r"(?:\x1b?\[\d+m)?ray::(?:[\w]+:\d+:)?(?:(?P<actor>[A-Za-z_][\w]*)\.)?(?P<method>[\w]+)\(\)"
    r"(?:(?:\x1b?\[\d+m)?\s*\(pid=(?P<pid>\d+)(?:,\s*ip=(?P<ip>[\d.:a-fA-F]+))?)?"
    r"|Unhandled error \(suppress with [^)]*\):\s*ray::(?P<actor2>[A-Za-z_]\w*)\.(?P<method2>\w+)\(\)"
    # (one a hard wrap cut before its actor's method was named: `...(OutOfMemoryError): ray::T`)
    r"|(?:RayTaskError|RayActorError)\((?P<inner3>[\w.]+)\)\s*:\s*(?:\x1b?\[\d+m)?ray::[\w.:]*$"
)
# A frame; a paste can cut its start (`RL/verl/utils/dataset.py", line 227, in f`), or a wrap at a
# space leave its `File` on the line before (`"/opt/verl/verl/x.py", line 3, in f`).
_FRAME = re.compile(
    r'(?:File "|^\s*"?(?=[\w.~/\\-]+\.py", line ))(?P<path>[^"]+)", line (?P<line>\d+), in (?P<func>[\w<>.]+)'
)
# torch re-raising an error of a DataLoader worker (or of a pin-memory thread, a DataParallel
# replica) in the main process: `AssertionError: Caught AssertionError in DataLoader worker
# process 0.`, the original traceback after it.
_TORCH_RERAISED = r"\bCaught \w+ in (?:DataLoader worker process|pin memory thread for device|replica) \d+"
_RERAISED = re.compile(_TORCH_RERAISED.removeprefix(r"\b"))
_ECHO = re.compile(
    r"Error executing job with overrides|environment variable HYDRA_FULL_ERROR|ActorDiedError|"
    r"The actor died (?:because of an error raised in its creation task|unexpectedly)|"
    r"Exception raised in creation task|Unhandled error \(suppress with|ChildFailedError|" + _TORCH_RERAISED
)
_BENIGN = re.compile(
    r"Warning\b|^Exception ignored in|Failed to read commit hash|No module named 'vllm\._version'|"
    r"^During handling of the above exception|^The above exception was the direct cause|"
    r"^Traceback \(most recent call last\)|Error executing job|^ERROR:?\s*$"
)
# A generic wrapper whose own type says nothing about the cause.
_WRAPPER_TYPES = {
    "RayTaskError",
    "RaySystemError",
    "ActorDiedError",
    "RayActorError",
    "ChildFailedError",
    "InstantiationException",
}
# Hydra's InstantiationException wraps the error of the target it called or looked up (`Error in
# call to target 'X':` and the inner error); raised by Hydra's own check of the entry it was given
# (`Unsupported _args_ type`), it is the error itself.
_HYDRA_WRAPPING = re.compile(
    r"Error (?:in call to target|in collecting args and kwargs for|in creating partial|locating target)\b"
)


@record(frozen=True)
class ExceptionLine:
    type: str  # e.g. "ValueError"
    qualified: str  # e.g. "torch.OutOfMemoryError"
    message: str


@record(frozen=True)
class Envelope:
    inner: str  # exception type named inside RayTaskError(...)
    actor: str | None  # TaskRunner, WorkerDict, ...; None for a remote function (`ray::main_task()`)
    method: str  # run, actor_rollout_compute_log_prob, ...
    pid: int | None = None  # the actor that raised it: `ray::WorkerDict.x() (pid=1201, ip=...)`
    ip: str | None = None


@record(frozen=True)
class Frame:
    path: str
    line: int
    func: str

    @property
    def is_verl(self) -> bool:
        return is_verl_path(self.path)

    @property
    def runs_verl(self) -> bool:
        """verl's code at work: not a script in a source checkout's side folders (`scripts/`,
        `examples/`, `tests/`), which a user may have put there and runs on its own."""
        if not self.is_verl:
            return False
        parts = self.path.replace("\\", "/").split("/")
        after = parts[len(parts) - parts[::-1].index("verl") :] if "verl" in parts else []
        return not (len(after) > 1 and after[0] in _CHECKOUT_SIDE_FOLDERS)

    @property
    def package(self) -> str | None:
        """The installed package the file belongs to (`vllm` for .../site-packages/vllm/...),
        `verl` for verl's own code (also a source checkout and verl's recipes), else None."""
        return package_of(self.path)

    @property
    def in_standard_library(self) -> bool:
        """A file of Python's own library (`/usr/lib/python3.10/asyncio/base_events.py`)."""
        return _STDLIB.search(self.path.replace("\\", "/")) is not None

    @property
    def passes_call_on(self) -> bool:
        """Code that only hands a call on: Python's own library (asyncio, functools) or torch's
        decorators for grad modes (`@torch.no_grad()` on transformers' generate())."""
        return self.in_standard_library or self.path.replace("\\", "/").endswith(_CALL_WRAPPERS)

    @property
    def starts_a_module(self) -> bool:
        """Python's runpy running the module `python -m` named (`<frozen runpy>` from 3.11 on)."""
        return self.path == "<frozen runpy>" or _RUNPY.search(self.path.replace("\\", "/")) is not None


_PACKAGE_DIRS = ("site-packages", "dist-packages")
_CALL_WRAPPERS = ("/torch/utils/_contextlib.py",)
# Python's own library: a lib/python3.X folder, outside its site-packages.
_STDLIB = re.compile(r"(?:^|/)(?i:lib)/python3(?:\.\d+)?/(?!(?:site|dist)-packages/)[^\s\"]+\.py$")
# Python starting a module that `python -m` named (`/usr/lib/python3.12/runpy.py`): the module run
# is where the program's own code begins.
_RUNPY = re.compile(r"(?:^|/)(?i:lib)/(?:python\d(?:\.\d+)?/)?runpy\.py$")
# Packages users install from a source checkout -> the names of the checkout's folder.
_CHECKOUTS = {
    "vllm": frozenset(("vllm",)),
    "vllm_ascend": frozenset(("vllm-ascend", "vllm_ascend")),
    "sglang": frozenset(("python",)),
    # (MindSpeed-LLM is run with a copy of Megatron-LM's megatron/ folder inside it)
    "megatron": frozenset(("Megatron-LM", "megatron-lm", "Megatron", "MindSpeed-LLM")),
    "transformer_engine": frozenset(("TransformerEngine",)),
    # (Ascend's MindSpeed, installed from its checkout as its guide says: verl's mindspeed engine)
    "mindspeed": frozenset(("MindSpeed",)),
}
# A verl source checkout's folders beside its package (where users also keep their own scripts).
_CHECKOUT_SIDE_FOLDERS = frozenset(("scripts", "examples", "tests"))
# A `verl` folder followed by these is a Python environment named verl (`conda create -n verl`).
_ENV_LAYOUT = frozenset(("lib", "lib64", "bin", "include", "share", "Lib", "Scripts", "conda-meta"))


# The Ray actors verl's trainers start, by class name (`(TaskRunner pid=1)`, `ray::WorkerDict.x()`).
_VERL_ACTOR = re.compile(
    r"(?:TaskRunner\w*|WorkerDict|(?:vLLM|SGLang|TRTLLM)HttpServer|AgentLoopWorker\w*|RewardLoopWorker\w*|"
    r"RewardManagerWorker|FullyAsync\w+|OneStepOff\w+)"
)


@lru_cache(maxsize=1024)  # asked for the worker of every line until one is verl's
def is_verl_actor(name: str | None) -> bool:
    """True for the class name of a Ray actor verl's trainers start."""
    return name is not None and _VERL_ACTOR.fullmatch(name) is not None


@lru_cache(maxsize=4096)  # a traceback names the same few files on every rank and retry
def is_verl_path(path: str) -> bool:
    """True for a file of verl's own code: under site-packages, the installed package is the
    folder right after the last site-packages (so `envs/verl/.../site-packages/omegaconf` is
    omegaconf); elsewhere, a source checkout's `verl/` folder that is not an environment's root."""
    parts = path.replace("\\", "/").split("/")
    for marker in _PACKAGE_DIRS:
        if marker in parts:
            rest = parts[len(parts) - parts[::-1].index(marker) :]
            if rest and rest[0].endswith(".egg"):  # site-packages/verl-0.4-py3.10.egg/verl/...
                rest = rest[1:]
            return len(rest) > 1 and rest[0] == "verl"
    return any(
        part == "verl"
        and parts[i + 1] not in _ENV_LAYOUT
        and (i == 0 or parts[i - 1] not in ("envs", "versions"))
        for i, part in enumerate(parts[:-1])
    )


@lru_cache(maxsize=4096)  # asked for each frame of every rank's copy of a traceback
def package_of(path: str) -> str | None:
    """See Frame.package."""
    parts = path.replace("\\", "/").split("/")
    if is_verl_path(path):
        # (a library's copy that verl ships, verl/third_party/vllm/..., is that library's code)
        if "third_party" in parts[-4:-1]:
            i = len(parts) - 1 - parts[::-1].index("third_party")
            if parts[i - 1] == "verl" and i + 2 < len(parts):
                return parts[i + 1]
        return "verl"
    for marker in _PACKAGE_DIRS:
        if marker in parts:
            rest = parts[len(parts) - parts[::-1].index(marker) :]
            if rest and rest[0].endswith(".egg"):
                rest = rest[1:]
            return rest[0] if len(rest) > 1 else None
    # the engines installed from a source checkout, as their images do (/vllm-workspace/vllm/vllm/,
    # /vllm-workspace/vllm-ascend/vllm_ascend/, sglang/python/sglang/, Megatron-LM/megatron/)
    for i in range(len(parts) - 2, 0, -1):
        repos = _CHECKOUTS.get(parts[i])
        if repos is not None and parts[i - 1] in repos:
            return parts[i]
    # verl's recipes (one folder each: recipe/dapo/...), run from a checkout named otherwise; a
    # recipe folder of the user's own (recipe/my_task/) is the user's code
    for i, part in enumerate(parts[:-2]):
        if part == "recipe" and parts[i + 1] in verl_recipes():
            return "verl"
    return None


@lru_cache(maxsize=1)
def verl_recipes() -> frozenset[str]:
    """The folder names of verl's recipes, across its releases and its recipe repository."""
    with open(data_path("verl_recipes.txt"), encoding="utf-8") as fh:
        return frozenset(n.strip() for n in fh if n.strip() and not n.startswith("#"))


def exception_line(text: str) -> ExceptionLine | None:
    m = _EXCEPTION.match(text)
    if not m:
        return None
    etype = m.group("type")
    rest = m.group("rest").lstrip(":").strip()
    if (
        (etype in _WRAPPER_TYPES and not _checked_by_hydra(etype, rest))
        or _BENIGN.search(text)
        or _RERAISED.match(rest)
    ):
        return None
    return ExceptionLine(etype, (m.group("qual") or "") + etype, rest)


def _checked_by_hydra(etype: str, message: str) -> bool:
    """Whether an InstantiationException is Hydra refusing the entry itself, not a wrapper."""
    return etype == "InstantiationException" and bool(message) and not _HYDRA_WRAPPING.match(message)


def envelope(text: str) -> Envelope | None:
    m = _ENVELOPE.search(text)
    if not m:
        return None
    if m.group("inner"):
        pid = int(m.group("pid")) if m.group("pid") else None
        return Envelope(
            m.group("inner").rsplit(".", 1)[-1], m.group("actor"), m.group("method"), pid, m.group("ip")
        )
    if m.group("inner3"):
        return Envelope(m.group("inner3").rsplit(".", 1)[-1], None, "")
    return Envelope("", m.group("actor2"), m.group("method2"))


def frame(text: str) -> Frame | None:
    m = _FRAME.search(text)
    return Frame(m.group("path"), int(m.group("line")), m.group("func")) if m else None


def is_echo(text: str) -> bool:
    return bool(_ECHO.search(text))


def frame_match(text: str) -> re.Match[str] | None:
    """The raw match behind `frame`, for callers that keep its spans."""
    return _FRAME.search(text)


# Every pattern above, for checks that need to reason about all of them (verdict.py).
PATTERNS = (_EXCEPTION, _ENVELOPE, _FRAME, _ECHO, _BENIGN)
WRAPPER_TYPES = frozenset(_WRAPPER_TYPES)


SAVING_CHECKPOINT = "saving a checkpoint"
LOADING_CHECKPOINT = "loading a checkpoint"
_PHASES = (
    ("save_checkpoint", SAVING_CHECKPOINT),
    ("load_checkpoint", LOADING_CHECKPOINT),
    # (Megatron's distributed checkpoints, which verl's Megatron checkpoint manager reads and writes)
    ("save_dist_checkpointing", SAVING_CHECKPOINT),
    ("load_dist_checkpointing", LOADING_CHECKPOINT),
    ("model_merger", "merging a checkpoint"),
    ("update_weights", "syncing weights to the rollout engine"),
    ("sync_rollout_weights", "syncing weights to the rollout engine"),
    ("update_params", "syncing weights to the rollout engine"),
    ("_build_rollout", "building the rollout engine"),
    ("launch_servers", "launching the rollout servers"),
    ("AgentLoopManager", "starting the agent-loop rollout"),
    ("generate_sequences", "rollout (generation)"),
    ("compute_ref_log_prob", "computing reference log-probs"),
    ("compute_log_prob", "computing log-probs"),
    ("compute_values", "computing critic values"),
    ("update_actor", "updating the actor"),
    ("update_policy", "updating the actor"),
    ("update_critic", "updating the critic"),
    ("init_model", "initializing a model"),
    ("_build_model_optimizer", "initializing a model"),
    ("init_workers", "starting the workers"),
    # (the trainer's validation step, not a check of settings such as `_validate_config`)
    ("_validate(?!_)", "validation"),
    ("val_reward_fn", "validation"),
    ("reward", "computing rewards"),
    ("__getitem__", "loading data"),
    ("_create_dataloader", "loading data"),
    ("fit", "the training loop"),
)


@lru_cache(maxsize=512)
def describe_phase(name: str) -> str:
    """A short human phrase for an envelope method or frame function, or the name itself."""
    for key, label in _PHASES:
        if re.search(key, name):
            return label
    return name
