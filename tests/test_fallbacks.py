"""Exceptions no rule's wording knows: answers from the exception's class and the names in
its message, with honest confidence, and ranking that never puts a guess above them."""

from __future__ import annotations

import json

import pytest

from verl_doctor.catalog.load import load_catalog
from verl_doctor.engine.fallbacks import classify, pip_distribution
from verl_doctor.engine.session import Session, diagnose_text

_CATALOG = load_catalog(include_user=False, use_cache=False)


def _tb(
    last: str,
    path: str = "/opt/verl/verl/trainer/main_ppo.py",
    func: str = "run",
    statement: str = "something()",
    caller: str = "",
) -> str:
    """A worker's traceback: one frame (below a frame of `caller` in the same file, when given),
    the source line Python printed for it, the exception."""
    above = f'(TaskRunner pid=3012)   File "{path}", line 40, in {caller}\n(TaskRunner pid=3012)     x()\n'
    return (
        "(TaskRunner pid=3012) Traceback (most recent call last):\n"
        + (above if caller else "")
        + f'(TaskRunner pid=3012)   File "{path}", line 88, in {func}\n'
        f"(TaskRunner pid=3012)     {statement}\n"
        f"(TaskRunner pid=3012) {last}\n"
    )


@pytest.mark.parametrize(
    ("module", "dist"),
    [("yaml", "pyyaml"), ("cv2", "opencv-python"), ("google.protobuf", "protobuf"), ("some_pkg", "some-pkg")],
)
def test_pip_distribution_names_the_package_to_install(module: str, dist: str) -> None:
    assert pip_distribution(module) == dist


@pytest.mark.parametrize(
    ("module", "pkg"),
    [
        ("cachetools", "cachetools"),
        ("cv2", "opencv-python"),
        ("word2number", "word2number"),
        # verl 0.4's own __init__ imports pkg_resources, which setuptools 82 and later lack
        ("pkg_resources", '"setuptools<82"'),
    ],
)
def test_any_missing_third_party_module_is_a_missing_dependency(module: str, pkg: str) -> None:
    report = diagnose_text(_tb(f"ModuleNotFoundError: No module named '{module}'"), _CATALOG)
    first = report.findings[0]
    assert (first.rule, first.confidence) == ("ENV009", "medium")
    assert first.basis.startswith("exception")
    assert any(f"pip install {pkg}" in c for fix in first.fixes for c in fix.commands)
    assert not report.unrecognized


def test_ray_system_error_wrapper_is_read_too() -> None:
    report = diagnose_text(
        "ray.exceptions.RaySystemError: System error: No module named 'cachetools'\n", _CATALOG
    )
    assert [f.rule for f in report.findings] == ["ENV009"]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("ImportError: cannot import name 'Foo' from 'verl.utils.bar' (/x/verl/utils/bar.py)", "ENV005"),
        (
            "ImportError: cannot import name 'LLM' from 'vllm.entrypoints' (/x/vllm/entrypoints/__init__.py)",
            "ENV004",
        ),
        (
            "ImportError: cannot import name 'Qwen9Model' from 'transformers' (/x/transformers/__init__.py)",
            "ENV010",
        ),
        ("ModuleNotFoundError: No module named 'megatron.core.new_thing'", "ENV008"),
        ("FileNotFoundError: [Errno 2] No such file or directory: '/data/gsm8k/train.parquet'", "CFG013"),
        ("FileNotFoundError: [Errno 2] No such file or directory: '/models/qwen/config.json'", "CFG017"),
    ],
)
def test_names_in_the_message_choose_the_code(line: str, code: str) -> None:
    exc_type = line.split(":", 1)[0]
    found = classify(line.split(": ", 1)[1], exc_type)
    assert found is not None and found.code == code


@pytest.mark.parametrize(
    "message",
    [
        "No module named 'my_rewards.math'",  # the user's own package
        "No module named 'transformers_modules'",  # remote code: CFG007's business
        "cannot import name 'x' from partially initialized module 'foo' (most likely due to a circular import)",
        "[Errno 2] No such file or directory: '/tmp/something'",
    ],
)
def test_nothing_general_is_claimed_where_nothing_general_is_known(message: str) -> None:
    exc = "ImportError" if "import" in message else "ModuleNotFoundError"
    if "Errno" in message:
        exc = "FileNotFoundError"
    assert classify(message, exc) is None


def test_warnings_about_optional_imports_are_not_failures() -> None:
    text = (
        "(TaskRunner pid=16500) /opt/venv/lib/python3.11/site-packages/verl/workers/engine/__init__.py:32: "
        "UserWarning: torchtitan engine is not available: ModuleNotFoundError(\"No module named 'torchtitan'\")\n"
        "Failed to read commit hash: No module named 'vllm._version'\n"
    )
    report = diagnose_text(text, _CATALOG)
    assert not report.findings and not report.unrecognized


def test_a_specific_rule_beats_the_class_answer_for_the_same_line() -> None:
    rule = _CATALOG.by_id("ENV009")
    assert rule is not None
    report = diagnose_text(rule.examples_match[1], _CATALOG)
    assert report.findings[0].rule == "ENV009" and report.findings[0].basis == "message"


def test_verl_check_naming_config_options_says_which() -> None:
    text = _tb(
        "AssertionError: ppo_mini_batch_size 3 is not a multiple of ppo_micro_batch_size_per_gpu 2 (frobnicated)",
        "/opt/verl/verl/trainer/ppo/ray_trainer.py",
        "_validate_config",
    )
    report = diagnose_text(text, _CATALOG)
    assert report.findings[0].rule == "CFG004"
    assert "actor_rollout_ref.actor.ppo_mini_batch_size" in report.findings[0].basis


def test_a_dataloader_worker_killed_outright_is_possibly_the_hosts_memory() -> None:
    """torch's DataLoader naming SIGKILL as what killed a worker: on a training node nearly always
    the kernel's OOM killer, but not surely, so a possibility next to the error, not an answer."""
    text = _tb("RuntimeError: DataLoader worker (pid 23871) is killed by signal: Killed. ")
    report = diagnose_text(text, _CATALOG)
    assert report.findings == ()
    assert "DIST005" in (report.unrecognized[0].hint or "")


_NO_BUNDLES = _tb(
    "ValueError: Bundles must be a non-empty list of resource dictionaries. For example: "
    '`[{"CPU": 1.0}, {"GPU": 1.0}]`. Got empty list instead.',
    "/usr/local/lib/python3.11/site-packages/ray/util/placement_group.py",
    "_validate_bundles",
)


def test_ray_asked_for_no_bundles_is_a_pool_of_no_gpus_or_the_gpu_count_the_run_zeroed() -> None:
    """A placement group of no bundles: a resource pool of verl's sized 0 (CFG014); when the run
    set the trainer's own GPU count to 0, that count (CFG003), as when verl divides by it."""
    [pool] = diagnose_text(_NO_BUNDLES, _CATALOG).findings
    assert pool.rule == "CFG014"
    zeroed = "$ python3 -m verl.trainer.main_ppo trainer.nnodes=1 trainer.n_gpus_per_node=0\n" + _NO_BUNDLES
    [count] = diagnose_text(zeroed, _CATALOG).findings
    assert count.rule == "CFG003"
    assert "trainer.n_gpus_per_node to 0" in count.cause


def test_a_library_echoing_the_constant_a_hydra_null_became_names_that_setting() -> None:
    """torch's DataLoader handed `batch_size=None` (`data.train_batch_size=null` on the command
    line): the setting left without a value (CFG011), though the message never says `got`."""
    log = "$ python3 -m verl.trainer.main_ppo data.train_batch_size=null\n" + _tb(
        "ValueError: batch_size=None option disables auto-batching and is mutually exclusive with drop_last",
        "/usr/local/lib/python3.11/site-packages/torch/utils/data/dataloader.py",
        "__init__",
    )
    [finding] = diagnose_text(log, _CATALOG).findings
    assert finding.rule == "CFG011"
    assert "data.train_batch_size" in finding.cause


def test_an_installed_packages_own_file_named_in_a_refusal_is_no_custom_module() -> None:
    """transformers' auto classes not finding a class in their own module name that module's
    file: a file of the installed package, not a module of the user's that is missing."""
    where = "/usr/local/lib/python3.12/dist-packages/transformers"
    text = _tb(
        "ValueError: Could not find Qwen3VLForConditionalGeneration neither in <module "
        f"'transformers.models.qwen3_vl' from '{where}/models/qwen3_vl/__init__.py'> nor in "
        f"<module 'transformers' from '{where}/__init__.py'>",
        f"{where}/models/auto/auto_factory.py",
        "getattribute_from_module",
    )
    assert "CFG008" not in [f.rule for f in diagnose_text(text, _CATALOG).findings]


def test_a_weak_clue_never_stands_above_an_unknown_decisive_exception(run_cli) -> None:
    # ENV009's low-confidence clue (verl's "mbridge package not found" notice) next to a decisive
    # exception no rule knows: the guess must not be presented as the answer, only as a hint.
    text = "(TaskRunner pid=7) mbridge package not found. Please install it for Megatron models.\n" + _tb(
        "RuntimeError: the frobnicator refused to start on this host"
    )
    r = run_cli(["explain", "--format", "json"], stdin=text.encode())
    report = json.loads(r.stdout)
    assert report["findings"] == []
    assert report["unrecognized"] and r.returncode == 3
    assert "possibly related: ENV009" in report["unrecognized"][0]["hint"]
    # Without the decisive exception the clue is all there is: shown, as a possibility.
    alone = json.loads(run_cli(["explain", "--format", "json"], stdin=text.splitlines()[0].encode()).stdout)
    assert [(f["rule"], f["confidence"]) for f in alone["findings"]] == [("ENV009", "low")]


def test_low_confidence_is_said_as_possibly_in_every_format(run_cli) -> None:
    rule = next(r for r in _CATALOG.rules if any(c.confidence == "low" for c in r.clues))
    clue_text = None
    for text in rule.examples_match:
        report = diagnose_text(text, _CATALOG)
        if report.findings and report.findings[0].confidence == "low":
            clue_text = text
            break
    if clue_text is None:
        pytest.skip("no rule example is answered by a low-confidence clue alone")
    for fmt, needle in (("text", "possibly"), ("markdown", "possibly"), ("github", "(possibly)")):
        out = run_cli(["explain", "--format", fmt], stdin=clue_text.encode()).stdout.decode()
        assert needle in out, fmt
    data = json.loads(run_cli(["explain", "--format", "json"], stdin=clue_text.encode()).stdout)
    assert data["findings"][0]["confidence"] == "low" and data["findings"][0]["basis"] == "clue"


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("AssertionError: max_token_len_per_gpu must be set when use_dynamic_bsz is enabled (x)", "CFG011"),
        ("ValueError: num_prompts (500) must be a multiple of gen_batch_size (64) for now", "CFG004"),
        ("AssertionError: clip_ratio_c should be larger than 1.0, got 0.5 (frobnicated)", "CFG014"),
    ],
)
def test_verl_config_validation_errors_are_config_errors(message: str, code: str) -> None:
    text = _tb(message, "/opt/verl/verl/workers/config/actor.py", "__post_init__")
    first = diagnose_text(text, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == (code, "medium")
    assert "config check" in first.basis


def test_a_runtime_error_inside_verl_is_not_called_a_config_error() -> None:
    text = _tb(
        "ValueError: the frobnicator returned 3 sequences", "/opt/verl/verl/workers/rollout/x.py", "generate"
    )
    report = diagnose_text(text, _CATALOG)
    assert not report.findings and report.unrecognized


_SITE = "/usr/local/lib/python3.10/dist-packages"


@pytest.mark.parametrize(
    ("message", "path", "code"),
    [
        # The rollout engines' and transformers' own argument checks, naming the option.
        # (two settings that cannot work together; `layernorm` is a setting's word, not the model's class)
        (
            "ValueError: attn_out and layernorm offload cannot work with fp8 training.",
            f"{_SITE}/megatron/core/transformer/transformer_config.py",
            "CFG014",
        ),
        # (a feature refused beside a split, the feature first: the feature is the value refused)
        (
            "ValueError: Chunked decoding is not supported with pipeline-parallel-size > 1.",
            f"{_SITE}/vllm/engine/arg_utils.py",
            "CFG014",
        ),
        (
            "ValueError: speculative_draft_tensor_parallel_size=2 is not supported for this draft model.",
            f"{_SITE}/vllm/config.py",
            "CFG010",
        ),
        (
            "ValueError: Unknown kv_cache_dtype fp9. Choose from auto, fp8.",
            f"{_SITE}/sglang/srt/server_args.py",
            "CFG014",
        ),
        (
            "ValueError: --enable-dp-attention requires --dp-size to be set",
            f"{_SITE}/sglang/srt/server_args.py",
            "CFG011",
        ),
        (
            "AssertionError: rollout_batch 30 is not divisible by dispatch_world 8",
            "/opt/verl/verl/utils/seqlen_balancing.py",
            "CFG004",
        ),
        (
            "NotImplementedError: pipeline_parallel_size > 1 is not supported with enforce_eager=False",
            f"{_SITE}/vllm/engine/arg_utils.py",
            "CFG010",
        ),
        # Ray's check of the runtime_env verl passes from ray_kwargs.ray_init.
        (
            "TypeError: setup_timeout_seconds must be of type int, got: <class 'str'>",
            f"{_SITE}/ray/runtime_env/runtime_env.py",
            "CFG014",
        ),
        # Ray starting from ray_kwargs.ray_init: its runtime_env plugins and its node's own checks.
        (
            "ValueError: runtime_env['pip'] can only have these fields: packages, pip_check and pip_version, "
            "but got: ['packages', 'extra_index_url']",
            f"{_SITE}/ray/_private/runtime_env/validation.py",
            "CFG014",
        ),
        (
            "ValueError: The 'pip' field, 'uv' field, and 'conda' field of runtime_env cannot be specified "
            "at the same time.",
            f"{_SITE}/ray/runtime_env/runtime_env.py",
            "CFG014",
        ),
        # `ep` inside another option's name is no expert-parallel size, in a file that sets up the
        # parallel layout or not; the size's own option is.
        (
            "AssertionError: --elastic-ep-scale-timeout must be greater than zero.",
            f"{_SITE}/sglang/srt/arg_groups/parallel_hook.py",
            "CFG014",
        ),
        (
            "AssertionError: --ep-size must be greater than zero.",
            f"{_SITE}/sglang/srt/arg_groups/parallel_hook.py",
            "CFG010",
        ),
        # A feature the engine cannot combine with a model split.
        (
            "ValueError: Prequant BitsAndBytes models with TP is not supported.Please try with PP.",
            f"{_SITE}/sglang/srt/model_loader/loader.py",
            "CFG010",
        ),
        # One setting given without the one it goes with: what was given is refused.
        (
            "ValueError: num_speculative_tokens was provided without speculative model.",
            f"{_SITE}/vllm/config.py",
            "CFG014",
        ),
        # A feature switched in words, and an option directed beside a sample's kind.
        (
            "NotImplementedError: Disabling sliding window is not supported for models with rope_scaling. "
            "Please raise an issue so we can investigate.",
            f"{_SITE}/vllm/config/__init__.py",
            "CFG014",
        ),
        (
            "ValueError: The server is not configured to return the hidden states. Please set "
            "`--enable-return-hidden-states` to enable this feature.",
            f"{_SITE}/sglang/srt/managers/tokenizer_manager.py",
            "CFG014",
        ),
        # A value asked for in a given form was given in another (`host:port`).
        (
            "AssertionError: please provide --dist-init-addr as host:port of head node",
            f"{_SITE}/sglang/srt/server_args.py",
            "CFG014",
        ),
        # What a model split needs from the model's forward pass and did not get: the split does
        # not fit this model (no setting left out, `position_ids` is no option).
        (
            "AssertionError: position_ids is required for Ulysses sequence parallelism",
            "/opt/verl/verl/models/transformers/monkey_patch.py",
            "CFG010",
        ),
        # Megatron's uneven pipeline layout (how many layers the first stage holds) is the split.
        (
            "ValueError: num_layers_in_first_pipeline_stage must be larger than 0",
            f"{_SITE}/megatron/core/transformer/transformer_config.py",
            "CFG010",
        ),
        # ... while one asked for and not given is missing.
        (
            "ValueError: num_speculative_tokens must be provided with speculative model unless the "
            "draft model config contains a n_predict parameter.",
            f"{_SITE}/vllm/config.py",
            "CFG011",
        ),
        # What a model split does not support: the split when it is the object (`vpp`, in
        # non-native words), the feature when a split refuses it.
        ("AssertionError: not support vpp now", f"{_SITE}/mbridge/models/gemma3/__init__.py", "CFG010"),
        (
            "NotImplementedError: Dynamic CP does not support distillation",
            "/opt/verl/verl/workers/engine/megatron/transformer_impl.py",
            "CFG014",
        ),
        # Ray building its node's resources from what ray_init passes (num_gpus=0.5), in both
        # of its files' names across releases, and whatever the words put between must and be
        (
            "ValueError: Resource quantities must all be whole numbers. Violated by resource 'GPU' in "
            "{'CPU': 64, 'GPU': 0.5}.",
            "/usr/local/lib/python3.12/dist-packages/ray/_private/resource_spec.py",
            "CFG014",
        ),
        (
            "ValueError: Resource quantities must be nonnegative. Violated by resource 'GPU' in "
            "{'CPU': 128, 'GPU': -1}.",
            "/usr/local/lib/python3.12/dist-packages/ray/_private/resource_and_label_spec.py",
            "CFG014",
        ),
        # A custom module the user pointed verl at, whose class loaded but has the wrong base: a
        # value verl refuses (a module that cannot be found or loaded is CFG008).
        (
            "TypeError: The custom reward manager in /workspace/rm/my_reward.py must subclass AbstractRewardManager",
            "/opt/verl/verl/trainer/ppo/reward.py",
            "CFG014",
        ),
        # transformers' Adafactor, built by verl's build_optimizer from the optim config
        (
            "ValueError: Cannot combine manual `lr` and `relative_step=True` options",
            "/usr/local/lib/python3.12/dist-packages/transformers/optimization.py",
            "CFG014",
        ),
    ],
)
def test_a_library_refusing_a_named_setting_is_a_config_error(message: str, path: str, code: str) -> None:
    first = diagnose_text(_tb(message, path, "__init__"), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == (code, "medium")
    assert "config check" in first.basis


@pytest.mark.parametrize(
    ("message", "path"),
    [
        # What the model is, not how it was configured: no option named, nothing claimed.
        (
            "ValueError: Sliding window attention is not supported for this architecture.",
            f"{_SITE}/vllm/config.py",
        ),
        # A checkpoint's contents, read by a function whose name holds "check" only inside "checkpoint".
        (
            "AssertionError: rng state not found in dict_keys(['model', 'extra_state']).",
            "/opt/verl/verl/utils/checkpoint/fsdp_checkpoint_manager.py",
        ),
        # Code calling a library the wrong way, parts of the library needing one another, the
        # shapes a forward pass was given: no setting of the run.
        (
            "AssertionError: Invalid hidden_states shape, received torch.Size([1, 1, 8192, 3584])",
            "/opt/verl/verl/utils/experimental/torch_functional.py",
        ),
        (
            "AssertionError: execute_mode must be a Execute. Got all",
            "/opt/verl/verl/single_controller/base/decorator.py",
        ),
        (
            "NotImplementedError: AutoBridge should not be instantiated directly. Use from_pretrained() or "
            "from_config() class methods instead.",
            f"{_SITE}/mbridge/core/auto_bridge.py",
        ),
        (
            "AssertionError: reduce_scatter_gradients() should not be called when outer-DP sharding is enabled.",
            f"{_SITE}/megatron/core/distributed/fsdp/src/megatron_fsdp/param_and_grad_buffer.py",
        ),
        (
            "AssertionError: SWARadixCache or SWAChunkCache is required for SWATokenToKVPoolAllocator",
            f"{_SITE}/sglang/srt/managers/schedule_batch.py",
        ),
        (
            "ValueError: Tensor query has shape  with a zero dimension. FlashAttention does not support inputs "
            "with dim=0. Please check your input shapes or use SDPA instead.",
            f"{_SITE}/transformers/integrations/flash_attention.py",
        ),
        # A field of the model's config, as transformers names it: the model's, not the run's.
        (
            "ValueError: Could not find a `sliding_window` argument in the config, or it is not set",
            f"{_SITE}/transformers/masking_utils.py",
        ),
        # An object of verl's own class where a dict was wanted: what code passed (`Got`, capitalised).
        (
            "AssertionError: attribute must be a dictionary. Got "
            "<class 'verl.single_controller.base.decorator.Dispatch'>",
            "/opt/verl/verl/single_controller/base/worker_group.py",
        ),
        # The same words raised by the user's own code: not the stack's check of its settings.
        ("ValueError: max_len_tokens must be greater than 0", "/home/me/project/train_utils.py"),
        # verl checking its own state: no config key of verl named, no value refused, no batch split.
        (
            "AssertionError: execute_fn must be callable",
            "/opt/verl/verl/single_controller/base/worker_group.py",
        ),
        ("AssertionError: 15 != 16", "/opt/verl/verl/utils/seqlen_balancing.py"),
        # verl's kernels and helpers checking what their callers hand them.
        (
            "AssertionError: reduction must be a str, but got <class 'NoneType'>",
            "/opt/verl/verl/utils/kernel/linear_cross_entropy.py",
        ),
        ("AssertionError: Expected 2D tensor, got 3D", "/opt/verl/verl/utils/kernel/fp8_kernel.py"),
        # verl's FSDP helpers checking the module their caller hands them
        ("AssertionError: Only support root model offloading to CPU", "/opt/verl/verl/utils/fsdp_utils.py"),
        # the engine's tool-call parser converting what the model generated
        (
            "ValueError: invalid literal for int() with base 10: 'EOF'",
            f"{_SITE}/vllm/entrypoints/openai/tool_parsers/qwen3xml_tool_parser.py",
        ),
        # verl's padding helpers checking the batch's masks and lengths they are handed
        (
            "AssertionError: seq_len=731 is less than response_len=1024",
            "/opt/verl/verl/workers/roles/utils/padding.py",
        ),
        # verl's worker groups checking the calls a recipe's own code makes
        ("ValueError: Fail to set method_name generate", "/opt/verl/verl/single_controller/ray/base.py"),
        # a download behind a proxy that dropped the Hub's headers, while verl's model config loads
        (
            "AssertionError: expected_size must have been retrieved from server",
            "/opt/verl/verl/workers/config/model.py",
        ),
        # A prompt's token ids, not a setting.
        ("ValueError: Token id 151644 is out of vocabulary", f"{_SITE}/vllm/v1/engine/processor.py"),
        ("TypeError: Indexing with <class 'str'> is not supported", "/opt/verl/verl/protocol.py"),
        # Ray checking how code calls its API (a scheduling strategy), not what verl passes it.
        (
            "ValueError: The variadic parameter of the In operator must be a non-empty tuple",
            f"{_SITE}/ray/util/scheduling_strategies.py",
        ),
        # transformers' generate() checking the arguments a reward judge passed it.
        (
            "ValueError: `attention_mask` passed to `generate` must be 2D.",
            f"{_SITE}/transformers/generation/utils.py",
        ),
        # verl's dynamic sampling giving up on data that is too hard: the rows, not max_num_gen_batches
        (
            "ValueError: num_gen_batches=10 >= max_num_gen_batches=10. Generated too many. Please check "
            "if your data are too difficult. You could also try set max_num_gen_batches=0 to enable endless trials.",
            "/opt/verl/recipe/dapo/dapo_ray_trainer.py",
        ),
        # ... in the older recipe's words
        (
            "ValueError: num_gen_batches=10 >= max_num_gen_batches=10. Generated too many. Please check your data.",
            "/opt/verl/recipe/dapo/src/dapo_ray_trainer.py",
        ),
        # a batch handed where the code takes one item
        (
            "AssertionError: RewardLoopWorker only support single data item",
            "/opt/verl/verl/experimental/reward_loop/reward_loop.py",
        ),
        # the names code gave Ray actors
        (
            "AssertionError: invalid actor name: Tq8ZWorkerDict_0",
            "/opt/verl/verl/workers/rollout/sglang_rollout/async_sglang_server.py",
        ),
        # a member of the library's own enum: its state, not a setting's value
        (
            "ValueError: Invalid forward mode: ForwardMode.IDLE",
            f"{_SITE}/sglang/srt/model_executor/model_runner.py",
        ),
    ],
)
def test_refusals_that_name_no_setting_or_come_from_elsewhere_stay_unrecognized(
    message: str, path: str
) -> None:
    report = diagnose_text(_tb(message, path, "update_policy"), _CATALOG)
    assert not report.findings and report.unrecognized


@pytest.mark.parametrize(
    "message",
    ["This kernel requires CUDA", "The model requires trust_remote_code", "The layer requires it"],
)
def test_what_a_message_requires_last_is_a_package_only_when_it_is_one(message: str) -> None:
    from verl_doctor.engine.fallbacks.installs import install_required

    assert install_required(message, "AssertionError") is None


@pytest.mark.parametrize(
    ("message", "code", "package"),
    [
        (
            "NotImplementedError: Support for sglang>=0.5 with the FSDP backend is not implemented",
            "ENV004",
            "sglang",
        ),
        ("RuntimeError: Ray version 2.43 or higher is required, but found 2.40.0", "ENV013", "ray"),
        (
            "ValueError: Calling `x()` needs the installed version of bitsandbytes to be newer",
            "ENV013",
            "bitsandbytes",
        ),
        ("RuntimeError: this feature needs transformers>=4.56 (found 4.51.3)", "ENV010", "transformers"),
        ("ImportError: pyarrow requires NumPy 2.0 or newer, found 1.26.4", "ENV013", "numpy"),
        # the parser runtime latex2sympy needs, by the name it prints
        (
            "ImportError: Unsupported ANTLR version 4.9.2, only 4.9.3, 4.11.0, and 4.13.2 runtime versions "
            "are supported.",
            "ENV013",
            "antlr4",
        ),
        (
            "ImportError: Using fbgemm fp8 quantization requires torch > 2.1.0. Please install the latest "
            "version of torch ( pip install --upgrade torch )",
            "ENV013",
            "torch",
        ),
    ],
)
def test_a_message_naming_the_version_a_package_needs_is_a_version_mismatch(
    message: str, code: str, package: str
) -> None:
    found = classify(message.split(": ", 1)[1], message.split(":", 1)[0])
    assert found is not None and (found.code, found.groups.get("package")) == (code, package)


@pytest.mark.parametrize(
    ("message", "pkg"),
    [
        ("ImportError: The package `optimum` is required to use this feature.", "optimum"),
        ("ImportError: Using gguf requires `gguf`. Please run pip install gguf", "gguf"),
        ("RuntimeError: please ensure the 'sglang' package is properly installed", "sglang"),
        # a package named in backticks after "install the"
        (
            "RuntimeError: DeepGEMM backend is not available. Please install the `deep_gemm` package to "
            "enable FP8 kernels.",
            "deep-gemm",
        ),
        # a known package the code needs, named last with no release asked for (vLLM's FP4 GEMM)
        ("AssertionError: TRTLLM FP4 GEMM requires FlashInfer", "flashinfer-python"),
        # an import that failed, naming the version it would need: not installed at all
        (
            "ImportError: Using vLLM with ModelScope needs modelscope>=1.18.1, please install by "
            "`pip install modelscope -U`",
            "modelscope",
        ),
    ],
)
def test_a_message_asking_to_install_a_package_is_a_missing_dependency(message: str, pkg: str) -> None:
    first = diagnose_text(_tb(message, f"{_SITE}/transformers/utils/import_utils.py"), _CATALOG).findings[0]
    assert first.rule == "ENV009" and dict(first.facts).get("pkg") == pkg


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("OSError: /models/Qwen3-8B does not appear to have a file named config.json.", "CFG017"),
        ("ValueError: Cannot find /data/gsm8k/train.parquet, check data.train_files", "CFG013"),
        ("FileNotFoundError: function_tool_path does not exist: /workspace/tools/search.py", "CFG008"),
    ],
)
def test_a_path_the_message_says_is_not_there_is_told_by_what_it_is(message: str, code: str) -> None:
    first = diagnose_text(_tb(message, f"{_SITE}/transformers/configuration_utils.py"), _CATALOG).findings[0]
    assert first.rule == code, first


def test_a_key_the_file_does_not_hold_is_no_path_that_is_not_there() -> None:
    # (the adapter's config file is there; the LoRA rank it should hold is not)
    message = "ValueError: LoRA rank 'r' not found in /data/adapters/qwen-lora/adapter_config.json"
    report = diagnose_text(
        _tb(message, "/opt/verl/verl/utils/model.py", "get_lora_rank_from_adapter"), _CATALOG
    )
    assert "CFG017" not in [f.rule for f in report.findings]
    # ... while the file itself not being there is the path
    gone = "ValueError: /data/adapters/qwen-lora/adapter_config.json not found"
    report = diagnose_text(_tb(gone, "/opt/verl/verl/utils/model.py", "get_lora_rank_from_adapter"), _CATALOG)
    assert [f.rule for f in report.findings][:1] == ["CFG017"]


def test_a_key_error_where_verl_reads_a_data_row_is_a_missing_dataset_field() -> None:
    text = _tb("KeyError: 'answer'", "/workspace/proj/verl/verl/workers/reward_manager/naive.py", "__call__")
    first = diagnose_text(text, _CATALOG).findings[0]
    assert (first.rule, dict(first.facts).get("key_missing"), first.confidence) == (
        "CFG012",
        "answer",
        "medium",
    )
    # The same KeyError elsewhere in verl says nothing about the data.
    other = diagnose_text(_tb("KeyError: 'answer'", "/opt/verl/verl/trainer/ppo/metric_utils.py"), _CATALOG)
    assert not other.findings


def test_a_bare_assert_in_verl_is_read_from_the_condition_the_traceback_shows() -> None:
    text = (
        "(TaskRunner pid=7) Traceback (most recent call last):\n"
        '(TaskRunner pid=7)   File "/opt/verl/verl/trainer/ppo/ray_trainer.py", line 500, in _validate_config\n'
        "(TaskRunner pid=7)     assert config.data.train_batch_size >= config.actor_rollout_ref.actor.ppo_mini_batch_size\n"
        "(TaskRunner pid=7) AssertionError\n"
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG004", "medium")
    assert "data.train_batch_size" in first.basis
    assert first.cause.startswith("The failing check names data.train_batch_size")
    # `a % config.b == 0` on batch sizes is a division that must come out even (CFG004)
    divides = text.replace(
        "assert config.data.train_batch_size >= config.actor_rollout_ref.actor.ppo_mini_batch_size",
        "assert config.critic.ppo_mini_batch_size % config.critic.ppo_micro_batch_size == 0",
    )
    assert diagnose_text(divides, _CATALOG).findings[0].rule == "CFG004"
    # A bare assert on something that is not the config stays unrecognized.
    other = text.replace(
        "assert config.data.train_batch_size >= config.actor_rollout_ref.actor.ppo_mini_batch_size",
        "assert len(batch) == len(output)",
    ).replace("_validate_config", "generate")
    assert not diagnose_text(other, _CATALOG).findings


def test_a_bare_assert_comparing_a_name_with_literal_choices_checks_that_setting() -> None:
    """`assert truncation in ["left", ...]` checks data.truncation's value (the name alone, no
    `self.`); the error reached the trainer re-raised by torch from a DataLoader worker, and that
    re-raise is only an echo of it."""
    site = "/usr/local/lib/python3.11/site-packages"
    text = (
        "+ python3 -m verl.trainer.main_ppo data.truncation=leftpad\n"
        "Traceback (most recent call last):\n"
        f'  File "{site}/verl/trainer/ppo/ray_trainer.py", line 1110, in fit\n'
        "    for batch_dict in self.train_dataloader:\n"
        f'  File "{site}/torch/_utils.py", line 794, in reraise\n'
        "    raise exception\n"
        "AssertionError: Caught AssertionError in DataLoader worker process 0.\n"
        "Original Traceback (most recent call last):\n"
        f'  File "{site}/verl/utils/torch_functional.py", line 352, in postprocess_data\n'
        '    assert truncation in ["left", "right", "middle", "error"]\n'
        "AssertionError\n"
    )
    report = diagnose_text(text, _CATALOG)
    assert [(f.rule, f.confidence) for f in report.findings] == [("CFG014", "medium")]
    assert "data.truncation" in report.findings[0].basis
    assert not report.unrecognized
    # the same condition on a name that is no setting says nothing
    other = text.replace("assert truncation in", "assert direction in")
    assert not diagnose_text(other, _CATALOG).findings


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # A feature combination the engine refuses in so many words: a setting to change.
        (
            "NotImplementedError: Pipeline parallel size > 1 with chunked prefill is not supported yet.",
            "CFG010",
        ),
        ("AssertionError: Prefix caching is not currently supported with sliding-window KV groups", "CFG014"),
        # What the model is: no setting would fix it, nothing claimed.
        ("ValueError: Head size 72 is not supported by this attention backend.", None),
        ("NotImplementedError: Qwen9ForCausalLM does not support LoRA yet", None),
        # What a checkpoint holds is not a setting either.
        ("AssertionError: Optimizer state dict not found in dict_keys(['model']).", None),
    ],
)
def test_unsupported_features_are_settings_but_the_model_and_checkpoints_are_not(
    message: str, expected: str | None
) -> None:
    report = diagnose_text(
        _tb(message, f"{_SITE}/vllm/engine/arg_utils.py", "create_engine_config"), _CATALOG
    )
    first = report.findings[0].rule if report.findings else None
    assert first == expected, report.findings


_ACTOR_DEATH_ENVELOPE = (
    "Traceback (most recent call last):\n"
    '  File "/opt/verl/verl/trainer/main_ppo.py", line 103, in main\n'
    "    ray.get(main_task.remote(config))\n"
    "ray.exceptions.RayTaskError(ActorDiedError): ray::main_task() (pid=48999, ip=10.1.5.85)\n"
    '  File "/opt/verl/verl/trainer/ppo/ray_trainer.py", line 668, in fit\n'
    "    val_metrics = self._validate()\n"
)


def test_an_actor_death_envelope_whose_message_is_cut_off_is_a_worker_death() -> None:
    report = diagnose_text(_ACTOR_DEATH_ENVELOPE, _CATALOG)
    assert [(f.rule, f.confidence) for f in report.findings] == [("DIST003", "medium")]
    first = report.findings[0]
    assert "ActorDiedError" in first.basis
    # a remote function has no actor: it is named by the function, as Ray's own prefixes do
    assert [(w.actor, w.pid) for w in first.workers] == [("main_task", 48999)]
    # a session asked for its report twice (as `--follow` does) counts the envelope once
    session = Session(_CATALOG)
    scanner = session.scanner("<text>")
    session.feed(scanner, _ACTOR_DEATH_ENVELOPE.encode())
    session.finish(scanner)
    counts = [session.report().findings[0].count for _ in range(2)]
    assert counts == [first.count, first.count] == [1, 1]


def test_an_actor_death_envelope_yields_to_the_error_that_killed_the_actor() -> None:
    log = _ACTOR_DEATH_ENVELOPE + "ModuleNotFoundError: No module named 'flash_attn'\n"
    report = diagnose_text(log, _CATALOG)
    assert [f.rule for f in report.findings] == ["ENV009"]


_SAVE_REFUSED_BY_CONFIG_CHECK = (
    "Error executing job with overrides: ['algorithm.adv_estimator=grpo',"
    " 'actor_rollout_ref.model.path=/models/ds-lite',"
    " '+actor_rollout_ref.model.override_config.topk_group=4', 'trainer.save_freq=50']\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/verl/verl/trainer/main_ppo.py", line 42, in main\n'
    "    run_ppo(config)\n"
    '  File "/opt/verl/verl/trainer/ppo/ray_trainer.py", line 1210, in _save_checkpoint\n'
    "    self.actor_rollout_wg.save_checkpoint(\n"
    '  File "/opt/verl/verl/single_controller/ray/base.py", line 56, in __call__\n'
    "    output = ray.get(output)\n"
    "ray.exceptions.RayTaskError(StrictDataclassClassValidationError):"
    " ray::WorkerDict.actor_rollout_ref_save_checkpoint() (pid=3311, ip=10.0.0.5,"
    " actor_id=4c9d72a8e6f1b03a55d7e91801000000,"
    " repr=<verl.single_controller.ray.base.WorkerDict object at 0x7f0e58b3d2b0>)\n"
    '  File "/usr/local/lib/python3.12/dist-packages/huggingface_hub/dataclasses.py", line'
    " 251, in validate\n"
    "    validator(self)\n"
    "  File"
    ' "/usr/local/lib/python3.12/dist-packages/transformers/models/deepseek_v3/configuration_de'
    'epseek_v3.py", line 159, in validate_architecture\n'
    "    raise ValueError(\n"
    "ValueError: `n_group` and `topk_group` must be set together (both `None` for non-grouped"
    " routing), got n_group=None, topk_group=4.\n"
    "\n"
    "The above exception was the direct cause of the following exception:\n"
    "\n"
    "ray::WorkerDict.actor_rollout_ref_save_checkpoint() (pid=3311, ip=10.0.0.5,"
    " actor_id=4c9d72a8e6f1b03a55d7e91801000000,"
    " repr=<verl.single_controller.ray.base.WorkerDict object at 0x7f0e58b3d2b0>)\n"
    '  File "/opt/verl/verl/utils/checkpoint/fsdp_checkpoint_manager.py", line 390, in'
    " save_checkpoint\n"
    "    model_config.save_pretrained(hf_config_tokenizer_path)\n"
    '  File "/usr/local/lib/python3.12/dist-packages/transformers/configuration_utils.py",'
    " line 790, in save_pretrained\n"
    "    self.validate()\n"
    '  File "/usr/local/lib/python3.12/dist-packages/huggingface_hub/dataclasses.py", line'
    " 253, in validate\n"
    "    raise StrictDataclassClassValidationError(validator=validator.__name__, cause=e) from"
    " e\n"
    "huggingface_hub.errors.StrictDataclassClassValidationError: Class validation error for"
    " validator 'validate_architecture':\n"
    "    ValueError: `n_group` and `topk_group` must be set together (both `None` for"
    " non-grouped routing), got n_group=None, topk_group=4.\n"
)


def test_two_values_held_to_each_other_are_the_pair_given_not_a_value_left_out() -> None:
    from verl_doctor.engine.fallbacks.settings import config_check

    path = f"{_SITE}/transformers/models/deepseek_v3/configuration_deepseek_v3.py"
    together = (
        "`n_group` and `topk_group` must be set together (both `None` for non-grouped routing), "
        "got n_group=None, topk_group=4."
    )
    answer = config_check("ValueError", together, path, "validate_architecture", package="transformers")
    assert answer is not None and answer.code == "CFG014"
    # (one of them asked for and not given stays a value left out)
    alone = "`topk_group` must be set when `n_group` is set."
    answer = config_check("ValueError", alone, path, "validate_architecture", package="transformers")
    assert answer is not None and answer.code == "CFG011"


def test_a_wrapper_naming_only_a_type_follows_the_reading_of_the_exception_it_wraps() -> None:
    # The Ray wrapper names only the outer type (and the save it failed in); the config class's
    # own words, chained inside it, name the value this run set.
    report = diagnose_text(_SAVE_REFUSED_BY_CONFIG_CHECK, _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG014", "FLOW012"]
    # with nothing inside it read, the wrapper still leads
    bare = _SAVE_REFUSED_BY_CONFIG_CHECK.replace("+actor_rollout_ref.model.override_config.topk_group=4", "")
    assert [f.rule for f in diagnose_text(bare, _CATALOG).findings][0] == "FLOW012"


_TARGET_NOT_IMPORTABLE = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.10/site-packages/hydra/_internal/utils.py", line 635, in _locate\n'
    "    obj = import_module(part0)\n"
    '  File "/usr/lib/python3.10/importlib/__init__.py", line 126, in import_module\n'
    "    return _bootstrap._gcd_import(name[level:], package, level)\n"
    "ModuleNotFoundError: No module named 'agents'\n"
    "\n"
    "The above exception was the direct cause of the following exception:\n"
    "\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.10/site-packages/hydra/_internal/utils.py", line 637, in _locate\n'
    "    raise ImportError(\n"
    "ImportError: Error loading 'agents.sql_agent_loop.SQLAgentLoop':\n"
    "ModuleNotFoundError(\"No module named 'agents'\")\n"
    "Are you sure that module 'agents' is installed?\n"
)


def test_a_class_path_whose_own_module_is_not_importable_is_the_users_module() -> None:
    # Hydra locating a `_target_` the run gave: the module missing is the head of that path and
    # no package goes by its name, so it is the user's module, not a dependency to install.
    report = diagnose_text(_TARGET_NOT_IMPORTABLE, _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG008"]
    # a class of a known package whose package is missing stays a package to install
    package = _TARGET_NOT_IMPORTABLE.replace(
        "agents.sql_agent_loop.SQLAgentLoop", "math_verify.grader.Grader"
    )
    package = package.replace("'agents'", "'math_verify'")
    assert [f.rule for f in diagnose_text(package, _CATALOG).findings] == ["ENV009"]


def test_the_attention_code_the_run_chose_refusing_the_model_is_that_choice() -> None:
    # transformers runs integrations/<impl>_attention.py for attn_implementation=<impl>: what
    # it refuses (the model's head size) is refused for the implementation the run chose.
    overrides = (
        "Error executing job with overrides: ['algorithm.adv_estimator=grpo', "
        "'+actor_rollout_ref.model.override_config.attn_implementation=MiniMaxAI/msa']\n"
    )
    raised = _tb(
        "ValueError: MSA block-sparse attention only supports head_dim 128.",
        f"{_SITE}/transformers/integrations/msa_attention.py",
        "_validate_msa_init",
    )
    report = diagnose_text(overrides + raised, _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG014"]
    assert "attn_implementation" in report.findings[0].basis
    # another implementation chosen, or none: what the model is, no setting named
    other = overrides.replace("MiniMaxAI/msa", "sdpa")
    assert not diagnose_text(other + raised, _CATALOG).findings
    assert not diagnose_text(raised, _CATALOG).findings


def test_a_resume_path_given_as_a_number_is_a_value_not_a_path_left_null() -> None:
    raised = _tb(
        "AssertionError: resume ckpt must be str type",
        "/opt/verl/verl/trainer/ppo/ray_trainer.py",
        "_load_checkpoint",
        'assert isinstance(self.config.trainer.resume_from_path, str), "resume ckpt must be str type"',
    )
    run = "Error executing job with overrides: ['trainer.resume_mode=resume_path', 'trainer.resume_from_path={}']\n"
    report = diagnose_text(run.format(400) + raised, _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG014"]
    assert "trainer.resume_from_path" in report.findings[0].cause
    # left null (or not set at all) it stays a value left out
    assert [f.rule for f in diagnose_text(run.format("null") + raised, _CATALOG).findings] == ["CFG011"]
    assert [f.rule for f in diagnose_text(raised, _CATALOG).findings] == ["CFG011"]


def test_what_a_given_value_must_contain_is_that_value_refused_not_one_left_out() -> None:
    run = "Error executing job with overrides: ['actor_rollout_ref.rollout.temperature=inf']\n"
    raised = _tb(
        "ValueError: temperature must contain finite values",
        "/opt/verl/verl/workers/engine/megatron/transformer_impl.py",
        "_resolve_fused_temperature",
    )
    assert [f.rule for f in diagnose_text(run + raised, _CATALOG).findings] == ["CFG014"]


def test_a_fix_step_bound_to_a_group_shows_only_when_the_message_captured_it() -> None:
    weight = "(WorkerDict pid=51) KeyError: 'visual.patch_embed.proj.weight'\n"
    helper = "(WorkerDict pid=51) ImportError: cannot import name 'foo_helper' from 'transformers.utils'\n"
    steps = {
        name: [s.step for s in diagnose_text(log, _CATALOG).findings[0].fixes]
        for name, log in (("weight", weight), ("helper", helper))
    }
    assert any("Qwen2.5-VL weight name" in s for s in steps["weight"])
    assert not any("Qwen2.5-VL weight name" in s for s in steps["helper"])


def test_a_division_by_zero_on_a_line_reading_settings_is_a_setting_that_is_zero() -> None:
    log = (
        '(WorkerDict pid=71)   File "/opt/verl/verl/workers/critic/dp_critic.py", line 54, in __init__\n'
        "(WorkerDict pid=71)     assert self.config.ppo_mini_batch_size % self.config.ppo_micro_batch_size == 0\n"
        "(WorkerDict pid=71) ZeroDivisionError: integer division or modulo by zero\n"
    )
    report = diagnose_text(log, _CATALOG)
    first = report.findings[0]
    assert (first.rule, first.confidence) == ("CFG004", "medium")
    assert "ZeroDivisionError" in first.basis and "ppo_micro_batch_size" in first.basis
    # the same error on a line that reads no setting is not a config answer
    plain = log.replace("self.config.ppo_mini_batch_size % self.config.ppo_micro_batch_size", "total % count")
    assert [f.rule for f in diagnose_text(plain, _CATALOG).findings] == []


@pytest.mark.parametrize(
    ("last", "path", "func", "code"),
    [
        # the raising statement reads the setting it refuses
        (
            "AssertionError: Reward model should not skip tokenizer init.",
            "/opt/verl/verl/experimental/reward_loop/reward_model.py",
            "__init__",
            "CFG014",
        ),
        # a refused kind of setting, named in words
        (
            "ValueError: Invalid activation recompute method.",
            "/opt/verl/verl/models/mcore/qwen2_5_vl/vision_transformer_block.py",
            "_checkpointed_forward",
            "CFG014",
        ),
        # a pipeline split that must divide the layers (a misspelt one too)
        (
            "AssertionError: With uneven pipelineing the left over layers must be divisible by left over stages",
            "/opt/verl/verl/utils/megatron/router_replay_utils.py",
            "get_num_layers_to_build",
            "CFG010",
        ),
        # a refusal inside a library's own settings code names a setting even without code words
        (
            "AssertionError: The expert parallel size must be 1 or the same as the tensor parallel size",
            "/usr/lib/python3/dist-packages/sglang/srt/server_args.py",
            "__post_init__",
            "CFG010",
        ),
        # Ray's own check of a ray.init / runtime_env argument
        (
            "TypeError: runtime_env['conda'] must be of type str or dict, got <class 'list'>.",
            "/usr/lib/python3/dist-packages/ray/_private/runtime_env/validation.py",
            "parse_and_validate_conda",
            "CFG014",
        ),
        # options, spelt the way code spells them, that were not given
        (
            "AssertionError: rollout_backend_module and rollout_backend_class must be both provided for customization",
            "/opt/verl/verl/workers/rollout/async_server.py",
            "async_server_class",
            "CFG011",
        ),
        # a value of the wrong type is refused, not missing
        (
            "AssertionError: `steps` must contain int only",
            "/opt/verl/verl/utils/skip/config.py",
            "__post_init__",
            "CFG014",
        ),
        # a section a loss mode needs was not passed along: missing
        (
            "ValueError: rollout_correction config not found in policy_loss. When using "
            "loss_mode='bypass_mode', ensure rollout_correction config is passed.",
            "/opt/verl/verl/trainer/ppo/core_algos.py",
            "compute_policy_loss_bypass_mode",
            "CFG011",
        ),
        # the refused value is shown as a list, after "Expect ... to be"
        (
            "ValueError: Expect pad_mode to be 'right' or 'no_padding'. Got left",
            "/opt/verl/verl/utils/dataset/multiturn_sft_dataset.py",
            "__init__",
            "CFG014",
        ),
        # the value it got is shown
        (
            "NotImplementedError: PD disaggregation is only supported with rollout in ('sglang', 'vllm'); got 'trtllm'.",
            "/opt/verl/verl/workers/rollout/replica.py",
            "get_rollout_replica_class",
            "CFG014",
        ),
        # the choices it takes, then their noun
        (
            "TypeError: Only varlen and flex attn masks are supported",
            "/opt/verl/verl/workers/engine/torchtitan/utils.py",
            "get_attention_masks",
            "CFG014",
        ),
    ],
)
def test_refusals_read_from_the_raising_statement_and_its_words(
    last: str, path: str, func: str, code: str
) -> None:
    statement = "assert cond, msg" if last.startswith("AssertionError") else "raise ValueError(msg)"
    if "skip tokenizer init" in last:
        statement = 'assert self.config.rollout.skip_tokenizer_init is False, "Reward model should not skip"'
    first = diagnose_text(_tb(last, path, func, statement), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == (code, "medium")
    assert first.basis.startswith("exception:")


def test_a_refusal_about_a_data_row_is_not_a_setting() -> None:
    log = _tb(
        "AssertionError: System message should be the first message",
        "/opt/verl/verl/utils/dataset/multiturn_sft_dataset.py",
        "__getitem__",
        'assert messages[0]["role"] == "system", "System message should be the first message"',
    )
    # (the roles of a sample's messages out of their place: the row, CFG012, never a setting)
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["CFG012"]


@pytest.mark.parametrize(
    ("message", "exc_type", "code", "module"),
    [
        (
            "flash attn verion v2.7.3 and above is required for dynamic batching.",
            "AssertionError",
            "ENV013",
            "flash_attn",
        ),
        (
            "Transformer Engine v1.7.0 does not support Grouped Query Attention, use a newer version of "
            "Transformer Engine.",
            "ValueError",
            "ENV008",
            "transformer_engine",
        ),
        (
            "apply_chat_template requires jinja2>=3.1.0 to be installed. Your version is 3.0.3.",
            "ImportError",
            "ENV013",
            "jinja2",
        ),
        ("rotary_emb is not installed", "ImportError", "ENV009", "rotary_emb"),
        ("RayMetrics requires Ray to be installed.", "ImportError", "ENV009", "ray"),
        (
            "VLLM_ATTENTION_BACKEND is set to FLASHINFER, but flashinfer module was not found.",
            "ValueError",
            "ENV009",
            "flashinfer",
        ),
        (
            "This video processor cannot be instantiated. Please make sure you have `torchvision` installed.",
            "ImportError",
            "ENV009",
            "torchvision",
        ),
        # (the first of the packages named, the word `package` after it)
        (
            "sonic-moe kernel is missing required symbols: enums.ActivationType. Make sure you have the "
            "`kernels` package and `nvidia-cutlass-dsl` installed.",
            "ImportError",
            "ENV009",
            "kernels",
        ),
        (
            "FlashAttention3 has been toggled on, but it cannot be used due to the following error: the package "
            "flash_attn_3 seems to be not installed.",
            "ImportError",
            "ENV009",
            "flash_attn_3",
        ),
        # an import that names the package it needs before the words
        ("tabulate package is required to visualize sharding", "ImportError", "ENV009", "tabulate"),
        # the installed release called incompatible by name
        (
            "Found an incompatible version of torchao. Found version 0.3.1, but only versions above 0.4.0 "
            "are supported",
            "ImportError",
            "ENV013",
            "torchao",
        ),
        # what a release removed, named with that release
        (
            "The experimental `_owner` argument to `ray.put` has been removed in Ray 2.56.",
            "ValueError",
            "ENV013",
            "ray",
        ),
        # a package by any name that the code raising where it needs it asks for
        (
            "Sparse Attention Indexer CUDA op requires DeepGEMM to be installed.",
            "RuntimeError",
            "ENV009",
            "DeepGEMM",
        ),
        # transformers' quantizers: a package missing or older than the pin it states
        (
            "A valid HQQ version (>=0.2.1) is not available. Please follow the instructions to install it: "
            "`https://github.com/mobiusml/hqq/`.",
            "ImportError",
            "ENV009",
            "HQQ",
        ),
        (
            "Loading a Quark quantized model requires the `quark` library but it was not found in the "
            "environment. Please refer to https://quark.docs.amd.com/latest/install.html.",
            "ImportError",
            "ENV009",
            "quark",
        ),
        ("Pandas is required for the TAPAS tokenizer.", "ImportError", "ENV009", "pandas"),
        (
            "You need optimum-quanto package version to be greater or equal than 0.2.5 to use "
            "`QuantoQuantizedLayer`.",
            "ImportError",
            "ENV013",
            "optimum-quanto",
        ),
        # the installed release named, whatever the words then ask to install
        (
            "Your currently installed version of Keras is Keras 3, but this is not yet supported in "
            "Transformers. Please install the backwards-compatible tf-keras package with `pip install tf-keras`.",
            "ValueError",
            "ENV013",
            "keras",
        ),
        # a pin written after the package's name in quotes
        (
            "The AdEMAMix optimizer is not supported by your current version of `bitsandbytes`. Please "
            "install `bitsandbytes` >= 0.44.0.",
            "ValueError",
            "ENV013",
            "bitsandbytes",
        ),
        # a package the code needs where it raises, by the name it knows it by (vLLM's NIXL connector)
        ("NIXL is not available", "RuntimeError", "ENV009", "nixl"),
        # megatron-core's words for Transformer Engine and APEX
        (
            "Only TE with version >=2.3.0 supports delay_wgrad_compute now.",
            "RuntimeError",
            "ENV008",
            "transformer_engine",
        ),
        (
            "ColumnParallelLinear was called with gradient_accumulation_fusion set to True but the custom CUDA "
            "extension fused_weight_gradient_mlp_cuda module is not found. To use gradient_accumulation_fusion "
            "you must install APEX with --cpp_ext and --cuda_ext.",
            "RuntimeError",
            "ENV009",
            "apex",
        ),
        (
            "ray.util.lightgbm has been removed as of Ray 2.0. Instead, use the `lightgbm-ray` library "
            "directly or the `LightGBMTrainer` in Ray Train.",
            "ImportError",
            "ENV013",
            "ray",
        ),
        (
            "Please install the latest version of Quark (>=0.12).Please refer to "
            "https://quark.docs.amd.com/latest/install.html.",
            "ImportError",
            "ENV013",
            "quark",
        ),
    ],
)
def test_versions_and_installs_named_loosely(message: str, exc_type: str, code: str, module: str) -> None:
    found = classify(message, exc_type)
    assert found is not None and found.code == code and found.groups.get("module") == module
    # an English word after `module` is not a package, nor a setting compared with a number
    assert classify("Module path is required when source='importlib'", "ValueError") is None
    # `X package is required` asks for an install only where an import failed
    assert classify("reward package is required for this manager", "ValueError") is None
    # nor a word that names no package before `to be installed` or `module was not found`
    assert classify("This feature requires Foo to be installed.", "ValueError") is None
    assert classify("The registry module was not found.", "ValueError") is None
    assert classify("temperature >= 0.5 is required", "ValueError") is None
    # a platform is not a package, whoever raises it
    assert classify("CUDA is not available", "RuntimeError") is None


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("TypeError: apply_monkey_patch() got an unexpected keyword argument 'model'", "ENV005"),
        (
            "TypeError: RayWorkerGroup.__init__() missing 1 required positional argument: 'resource_pool'",
            "ENV005",
        ),
        # a function verl calls by its contract: the user's own signature is wrong, not verl's release
        ("TypeError: compute_score() got an unexpected keyword argument 'extra_info'", None),
        # mbridge's method called with a keyword the installed mbridge does not take
        (
            "TypeError: Bridge.save_weights() got an unexpected keyword argument 'distributed_filesystem'",
            "ENV008",
        ),
        # a module-level name mbridge shares with torch and others says nothing of mbridge
        ("TypeError: ModuleDict.__init__() got an unexpected keyword argument 'strict'", None),
        # a name verl never defined
        ("TypeError: AlfredTWEnv.__init__() takes from 2 to 3 positional arguments but 6 were given", None),
    ],
)
def test_a_call_that_fits_no_signature_of_verl_is_code_for_another_verl(
    message: str, code: str | None
) -> None:
    found = classify(message.split(": ", 1)[1], "TypeError")
    assert (found.code if found else None) == code


@pytest.mark.parametrize(
    ("last", "path", "func"),
    [
        (
            "ValueError: The input_ids [151644, 872] contains values greater than the vocab size (151936).",
            "/usr/lib/python3/dist-packages/sglang/srt/managers/tokenizer_manager.py",
            "_validate_input_ids_in_vocab",
        ),
        # verl's helper refusing token ids a custom agent loop passed as text
        (
            "TypeError: token_ids must be list-like token ids, got str: '<|im_start|>system'",
            "/opt/verl/verl/utils/tokenizer.py",
            "normalize_token_ids",
        ),
        # verl's dataset code refusing what a row holds, naming no setting
        (
            "AssertionError: loss_mask should be int, got <class 'float'>",
            "/opt/verl/verl/utils/dataset/multiturn_sft_dataset.py",
            "__getitem__",
        ),
        (
            "NotImplementedError: Currently, we only support the video formats introduced in qwen2-vl.",
            "/opt/verl/verl/utils/dataset/vision_utils.py",
            "process_video",
        ),
        # verl's agent loop refusing the kind of media a user's tool returned
        (
            "NotImplementedError: Multimedia type 'video' is not currently supported. Only 'image' is supported.",
            "/opt/verl/verl/experimental/agent_loop/tool_agent_loop.py",
            "_handle_processing_tools_state",
        ),
    ],
)
def test_a_refusal_of_a_sample_or_of_how_code_calls_a_library_is_not_a_setting(
    last: str, path: str, func: str
) -> None:
    log = _tb(last, path, func, "raise ValueError(msg)")
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == []


@pytest.mark.parametrize(
    ("last", "path", "func"),
    [
        # a name a user's module registers that verl's registry already holds
        (
            "ValueError: reward loop manager naive has already been registered",
            "/opt/verl/verl/experimental/reward_loop/registry.py",
            "register",
        ),
        (
            "ValueError: Function tool 'search' is already registered to tools.search; refusing to overwrite "
            "with my_tools.search.",
            "/opt/verl/verl/tools/function_tool.py",
            "function_tool",
        ),
        (
            "RuntimeError: Module name 'my_reward' already in `sys.modules` and points to a different module.",
            "/opt/verl/verl/utils/import_utils.py",
            "load_extern_object",
        ),
        # what a decorated function of the user's returned
        (
            "TypeError: @function_tool return tuple must have length 1, 2, or 3 (got length 4: ('a', 1, {}, 2)).",
            "/opt/verl/verl/tools/function_tool.py",
            "_normalize_result",
        ),
    ],
)
def test_what_verl_refuses_from_a_custom_module_is_that_module(last: str, path: str, func: str) -> None:
    log = _tb(last, path, func, "raise ValueError(msg)")
    assert [(f.rule, f.confidence) for f in diagnose_text(log, _CATALOG).findings] == [("CFG008", "medium")]
    # The same words from a library's registry (a model class registered twice) are not a user's module.
    library = _tb(last, f"{_SITE}/vllm/model_executor/models/registry.py", func, "raise ValueError(msg)")
    assert "CFG008" not in [f.rule for f in diagnose_text(library, _CATALOG).findings]


def test_an_option_about_roles_is_still_a_setting() -> None:
    # (of a rollout engine: verl's own keys are known); an option it asks for is one not given
    message = "ValueError: Please specify kv_disagg_role when kv_connector is set"
    engine = _tb(message, f"{_SITE}/sglang/srt/server_args.py", "add_message", "raise ValueError(msg)")
    assert [f.rule for f in diagnose_text(engine, _CATALOG).findings] == ["CFG011"]


def _hydra_wrapped(target: str, inner: str) -> str:
    """verl >= 0.8 builds its config classes with Hydra, which re-raises their refusal."""
    p = "(TaskRunner pid=3012) "
    return (
        f'{p}  File "/opt/venv/lib/python3.12/site-packages/hydra/_internal/instantiate/_instantiate2.py", '
        "line 97, in _call_target\n"
        f"{p}    raise InstantiationException(msg) from e\n"
        f"{p}hydra.errors.InstantiationException: Error in call to target '{target}':\n"
        f"{p}{inner}\n"
        f"{p}Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\n"
    )


@pytest.mark.parametrize(
    ("target", "inner", "code"),
    [
        (
            "verl.trainer.config.config.HybridRolloutSwitchConfig",
            "ValueError('switch_cost_window_size must be positive')",
            "CFG014",
        ),
        (
            "verl.utils.profiler.config.TorchProfilerToolConfig",
            "AssertionError(\"Profiler step_start must be of type int, got <class 'NoneType'>\")",
            "CFG014",
        ),
        ("verl.workers.config.rollout.RolloutConfig", "ValueError('rollout.name must be set')", "CFG011"),
    ],
)
def test_a_refusal_of_a_verl_config_class_wrapped_by_hydra_is_a_config_error(
    target: str, inner: str, code: str
) -> None:
    report = diagnose_text(_hydra_wrapped(target, inner), _CATALOG)
    assert [(f.rule, f.confidence) for f in report.findings] == [(code, "medium")]
    assert "config check in verl/" in report.findings[0].basis


def test_an_error_hydra_wraps_that_is_no_refusal_stays_an_unknown_exception() -> None:
    for target, inner in [
        ("verl.workers.config.model.HFModelConfig", "TypeError('cannot pickle lock')"),
        ("verl.utils.dataset.rl_dataset.RLHFDataset", "RuntimeError('socket closed by peer')"),
    ]:
        report = diagnose_text(_hydra_wrapped(target, inner), _CATALOG)
        assert not report.findings
        assert [u.exception for u in report.unrecognized] == [inner.partition("(")[0]]


@pytest.mark.parametrize("exc", ["FileNotFoundError", "PermissionError", "OSError"])
def test_a_file_error_raised_while_saving_a_checkpoint_is_a_failed_save(exc: str) -> None:
    text = _tb(
        f"{exc}: No such file or directory: /ckpt/global_step_1/actor/huggingface/model.safetensors",
        path="/opt/verl/verl/utils/checkpoint/megatron_checkpoint_manager.py",
        func="save_checkpoint",
        statement="self.bridge.save_weights(",
    )
    report = diagnose_text(text, _CATALOG)
    assert [(f.rule, f.confidence) for f in report.findings] == [("FLOW012", "medium")]
    assert "while saving a checkpoint" in report.findings[0].basis
    # The same error while loading is no failed save.
    loading = text.replace("save_checkpoint", "load_checkpoint")
    assert "FLOW012" not in [f.rule for f in diagnose_text(loading, _CATALOG).findings]


def test_a_raise_statement_a_traceback_prints_is_not_an_exception_of_its_own() -> None:
    text = _tb("RuntimeError: Failed to get device UUID for device 3: GPU is lost", statement="x()")
    text = text.replace("    x()", "    raise NVMLError(ret)")
    report = diagnose_text(text, _CATALOG)
    assert [u.exception for u in report.unrecognized] == ["RuntimeError"]


def test_a_bare_assert_under_torchrun_rank_prefixes_is_read_from_its_statement() -> None:
    text = (
        "[rank0]: Traceback (most recent call last):\n"
        '[rank0]:   File "/opt/verl/verl/utils/dataset/multiturn_sft_dataset.py", line 60, in __init__\n'
        '[rank0]:     assert self.truncation in ["error", "left", "right"]\n'
        "[rank0]: AssertionError\n"
    )
    report = diagnose_text(text, _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG014"]
    assert "data.truncation" in report.findings[0].basis


def test_a_file_that_does_not_parse_is_not_called_a_setting() -> None:
    text = _tb(
        "ValueError: Invalid JSON in /data/lora/adapter_config.json: Expecting ',' delimiter: line 14 column 5",
        path="/opt/verl/verl/utils/model.py",
        func="get_lora_rank_from_adapter",
        statement='raise ValueError(f"Invalid JSON in {config_path}: {e}") from e',
    )
    report = diagnose_text(text, _CATALOG)
    assert not report.findings
    assert [u.exception for u in report.unrecognized] == ["ValueError"]


def test_an_install_offered_as_another_way_out_is_not_a_missing_dependency() -> None:
    last = (
        "ValueError: The current `device_map` had weights offloaded to the disk. Please provide an "
        "`offload_folder` for them. Alternatively, make sure you have `safetensors` installed if the "
        "model you are using offers the weights in this format."
    )
    log = _tb(last, "/usr/lib/python3/dist-packages/transformers/modeling_utils.py", "from_pretrained")
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] != ["ENV009"]
    wanted = last.split(". Alternatively", 1)[0].replace(
        "Please provide an `offload_folder` for them", "Make sure you have `safetensors` installed"
    )
    log = _tb(wanted, "/usr/lib/python3/dist-packages/transformers/modeling_utils.py", "from_pretrained")
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["ENV009"]


@pytest.mark.parametrize(
    "message",
    [
        "module 'transformers' has no attribute 'Qwen3NextForCausalLM'",
        # transformers' lazy module says it without quotes
        "module transformers has no attribute Qwen3NextForCausalLM",
    ],
)
def test_a_name_missing_from_transformers_is_another_transformers_version(message: str) -> None:
    found = classify(message, "AttributeError")
    assert found is not None and found.code == "ENV010" and found.groups["name"] == "Qwen3NextForCausalLM"


def _pydantic_refusal(after: list[str]) -> str:
    """vLLM >= 0.10 builds its configs as pydantic dataclasses: pydantic reports the refusal."""
    p = "(vLLMHttpServer pid=4120, ip=10.0.0.2) "
    return "".join(
        f"{p}{ln}\n"
        for ln in [
            "Traceback (most recent call last):",
            '  File "/usr/lib/python3/dist-packages/vllm/engine/arg_utils.py", line 1109, in create_engine_config',
            "    return SpeculativeConfig(**self.speculative_config)",
            '  File "/usr/lib/python3/dist-packages/pydantic/_internal/_dataclasses.py", line 123, in __init__',
            "    s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)",
            "pydantic_core._pydantic_core.ValidationError: 1 validation error for SpeculativeConfig",
            *after,
            "    For further information visit https://errors.pydantic.dev/2.11/v/value_error",
        ]
    )


@pytest.mark.parametrize(
    ("after", "code"),
    [
        (
            [
                "  Value error, speculative_max_model_len=4096 cannot be larger than draft_max_model_len=2048 "
                "[type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]"
            ],
            "CFG014",
        ),
        (
            [
                "  Value error, num_speculative_tokens must be provided with speculative model unless the draft "
                "model config contains an n_predict parameter. [type=value_error, input_value=ArgsKwargs(())]"
            ],
            "CFG011",
        ),
    ],
)
def test_a_pydantic_config_class_refusing_a_value_is_the_engines_config_check(
    after: list[str], code: str
) -> None:
    first = diagnose_text(_pydantic_refusal(after), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == (code, "medium")
    assert "vllm's config check in vllm/engine/arg_utils.py (SpeculativeConfig.__post_init__)" in first.basis


def test_a_pydantic_config_class_built_outside_its_settings_code_still_checks_settings() -> None:
    # (vLLM's LLM() builds CompilationConfig itself: the class's own validation speaks)
    log = _pydantic_refusal(
        [
            "  Assertion failed, Can only specify 'none' or 'all' [type=assertion_error, input_value=ArgsKwargs(())]"
        ]
    )
    log = log.replace("vllm/engine/arg_utils.py", "vllm/entrypoints/llm.py").replace(
        "SpeculativeConfig", "CompilationConfig"
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")


def test_a_pydantic_refusal_no_check_explains_stays_unrecognized_with_its_message() -> None:
    report = diagnose_text(
        _pydantic_refusal(["  Assertion failed, internal state [type=assertion_error, input_value=1]"]),
        _CATALOG,
    )
    assert not report.findings
    assert [u.exception for u in report.unrecognized] == ["AssertionError"]


def test_an_unknown_exception_a_terminal_wrapped_is_read_whole() -> None:
    """The words that decide the fallback may be on the line the terminal wrapped to."""
    head = (
        "(vLLMHttpServer pid=9011, ip=10.0.0.4) ERROR 09-30 10:15:13 [core.py:843] RuntimeError: "
        "DeepGEMM backend is not"
    )
    log = f"{head}\navailable. Please install the `deep_gemm` package to enable FP8 kernels.\n"
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("ENV009", "medium")
    assert dict(first.facts).get("pkg") == "deep-gemm"


def test_a_verl_check_naming_a_key_the_run_set_is_about_that_setting() -> None:
    # The keys are in no shipped key list (a reward manager's free-form kwargs), but the run set
    # them, and verl's check names one: a refused value. Without the overrides, two options in
    # code's spelling held to an order say the same.
    message = "AssertionError: max_resp_len must be larger than overlong_buffer.len"
    path = "/opt/verl/verl/workers/reward_manager/dapo.py"
    statement = "assert self.max_resp_len >= self.overlong_buffer_cfg.len, ("
    bare = _tb(message, path, "__init__", statement)
    with_overrides = (
        "Error executing job with overrides: ['reward_model.reward_manager=dapo', "
        "'+reward_model.reward_kwargs.overlong_buffer_cfg.len=4096', '+reward_model.reward_kwargs.max_resp_len=2048']\n"
        + bare
    )
    for log in (bare, with_overrides):
        first = diagnose_text(log, _CATALOG).findings[0]
        assert (first.rule, first.confidence) == ("CFG014", "medium")


@pytest.mark.parametrize(
    ("last", "path", "func", "code"),
    [
        # a refusal that blames the GPU is what the card can do, not how the option was written
        (
            "RuntimeError: SGLang only supports sm75 and above.",
            "/usr/lib/python3/dist-packages/sglang/srt/model_executor/model_runner.py",
            "__init__",
            "ENV007",
        ),
        # a value shown as received: refused, even in words that ask for something
        (
            "ValueError: rollout_rs_threshold for option 'seq_mean_k3' must provide a single upper bound "
            "without '_'. Received '0.5_2.0'.",
            "/opt/verl/verl/trainer/ppo/rollout_corr_helper.py",
            "__post_init__",
            "CFG014",
        ),
        # an option the check requires, named with its section
        (
            "ValueError: GDPO requires 'algorithm.gdpo_reward_keys' listing the individual reward component keys",
            "/opt/verl/verl/trainer/ppo/core_algos.py",
            "compute_gdpo_outcome_advantage",
            "CFG011",
        ),
        # only some kinds of a value are supported
        (
            "ValueError: Only .zip files supported for remote URIs.",
            "/usr/lib/python3/dist-packages/ray/_private/runtime_env/working_dir.py",
            "upload_working_dir_if_needed",
            "CFG014",
        ),
        # a model split named: the parallel layout, though the words speak of the model
        (
            "ValueError: Number of experts in the model must be greater than 0 when expert parallelism is enabled.",
            "/usr/lib/python3/dist-packages/vllm/config/model.py",
            "__post_init__",
            "CFG010",
        ),
        # one option needed to use another that was turned on: the pair as set, not a value left out
        (
            "ValueError: moe_expert_capacity_factor must be set to use moe_pad_expert_input_to_capacity",
            "/usr/local/lib/python3.10/dist-packages/megatron/core/transformer/transformer_config.py",
            "__post_init__",
            "CFG014",
        ),
        # one value an option must have (`to be set to 32768`): a refused value, not a missing one
        (
            "AssertionError: AITER MLA requires max model len to be set to 32768",
            "/usr/local/lib/python3.10/dist-packages/vllm/attention/backends/rocm_aiter_mla.py",
            "__init__",
            "CFG014",
        ),
        # the value the check got, shown after it: `but gets X`
        (
            "ValueError: level only supports level0, 1, 2, and level_none, but gets Level1",
            "/opt/verl/verl/utils/profiler/mstx_profile.py",
            "get_npu_profiler",
            "CFG014",
        ),
        # what an option's value must hold, or holds and may not: a refused value, not a missing one
        (
            "AssertionError: ppo_epochs must specify a positive number of passes",
            "/opt/verl/verl/workers/config/actor.py",
            "__post_init__",
            "CFG014",
        ),
        (
            "ValueError: `load_contents` contains 'hf_model' but `bridge` is None. "
            "Pass `bridge=...` or remove 'hf_model' from `load_contents`.",
            "/opt/verl/verl/utils/checkpoint/megatron_checkpoint_manager.py",
            "__init__",
            "CFG014",
        ),
        # torchrun's launcher and rendezvous read the run's settings (endpoint, MASTER_PORT)
        (
            "ValueError: port must have value from 0 to 65535 but was 70412.",
            "/usr/local/lib/python3.10/dist-packages/torch/distributed/rendezvous.py",
            "_create_c10d_store",
            "CFG014",
        ),
        (
            "ValueError: Port is absent in endpoint: gpu-a-001. Try launching with --master-port",
            "/usr/local/lib/python3.10/dist-packages/torch/distributed/elastic/rendezvous/static_tcp_rendezvous.py",
            "create_rdzv_handler",
            "CFG011",
        ),
        # the DataLoader's constructor checks verl's data loader settings
        (
            "ValueError: prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 "
            "to enable multiprocessing, otherwise set prefetch_factor to None.",
            "/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py",
            "__init__",
            "CFG014",
        ),
        # transformers refusing a dtype string
        (
            "ValueError: `dtype` provided as a `str` can only be `'auto'`, or a string representation of a valid "
            "`torch.dtype`",
            "/usr/local/lib/python3.10/dist-packages/transformers/modeling_utils.py",
            "_get_dtype",
            "CFG014",
        ),
        # a check that says its subject comes from the config; a backend refusing a feature
        (
            "ValueError: Apply Chat template from config is not supported yet.",
            "/opt/verl/verl/trainer/fsdp_sft_trainer.py",
            "__init__",
            "CFG014",
        ),
        (
            "ValueError: TensorRT-LLM backend does not support reward models currently.",
            "/opt/verl/verl/experimental/reward_loop/reward_loop.py",
            "compute_score_disrm",
            "CFG014",
        ),
        # the option whose value is refused comes first; the parallel size is the circumstance
        (
            "ValueError: loss_agg_mode='seq-mean-token-mean' is incompatible with calculate_per_token_loss=True "
            "(auto-enabled by Megatron-Bridge under CP>1).",
            "/opt/verl/verl/workers/engine/megatron/transformer_impl.py",
            "postprocess_micro_batch_func",
            "CFG014",
        ),
        # a custom class that loaded but has the wrong base: a value refused, not a module not found
        (
            "TypeError: The custom datagen class 'ParaphraseGenerator' from '/workspace/augment/paraphrase_gen.py' "
            "must inherit from <class 'verl.experimental.dynamic_dataset.dynamicgen_dataset.AbstractDataGenerator'>",
            "/opt/verl/verl/experimental/dynamic_dataset/dynamicgen_dataset.py",
            "__init__",
            "CFG014",
        ),
        # a bare `raise Exception(...)` refusing what a setting asks for
        (
            "Exception: No corresponding LoRA layer supported for <class 'sglang.srt.models.deepseek_v2.MoEGate'>.",
            "/usr/local/lib/python3.12/dist-packages/sglang/srt/lora/layers.py",
            "get_lora_layer",
            "CFG014",
        ),
        # a registry refusing a name and listing the names it has
        (
            "ValueError: Unknown platform 'npu'. Registered: ('nvidia', 'huawei', 'amd'). "
            "Use @PlatformRegistry.register() to add a new platform.",
            "/opt/verl/verl/plugin/platform/platform_manager.py",
            "_create_platform",
            "CFG014",
        ),
        # a name given twice where each must be unique
        (
            "ValueError: Duplicate interaction name 'gsm8k' found. Each interaction must have a unique name.",
            "/opt/verl/verl/interactions/utils/interaction_registry.py",
            "initialize_interactions_from_config",
            "CFG014",
        ),
        # a field each sample of the dataset must carry
        (
            "ValueError: 'name' key is required in interaction_kwargs",
            "/opt/verl/verl/experimental/agent_loop/tool_agent_loop.py",
            "run",
            "CFG012",
        ),
        # one option named in quotes that the configuration must include
        (
            "AssertionError: Configuration must include 'retrieval_service_url'",
            "/opt/verl/verl/tools/search_tool.py",
            "__init__",
            "CFG011",
        ),
        # a name looked up where the available ones are listed
        (
            "ValueError: Interaction 'gsm8k' not found in interaction_map. Available interactions: ['math_feedback']",
            "/opt/verl/verl/workers/rollout/sglang_rollout/sglang_rollout.py",
            "_async_rollout_a_request",
            "CFG014",
        ),
        # a combination of choices verl refuses in so many words
        (
            "AssertionError: Async reward score is not supported in remote reward manager.",
            "/opt/verl/verl/experimental/reward_loop/reward_manager/remote.py",
            "__init__",
            "CFG014",
        ),
        # a model split that needs another way of building the model
        (
            "AssertionError: please use mbridge for qwen2_5_vl with context parallelism",
            "/opt/verl/verl/models/mcore/qwen2_5_vl/model.py",
            "__init__",
            "CFG010",
        ),
        # a combination verl supports only with another value
        (
            "ValueError: FP8 quantization is only supported for dummy load format",
            "/opt/verl/verl/workers/rollout/trtllm_rollout/trtllm_async_server.py",
            "launch_server",
            "CFG014",
        ),
        # samples per group are the rollout's n, not a batch size to divide
        (
            "ValueError: Pass@k requires at least 2 samples per group. Got 1 for group 6b3e02c1.",
            "/opt/verl/verl/trainer/ppo/core_algos.py",
            "compute_grpo_passk_outcome_advantage",
            "CFG014",
        ),
        # a model split refused without another (`Can not use X without Y`): the parallel layout
        (
            "ValueError: Can not use sequence paralllelism without tensor parallelism",
            "/usr/local/lib/python3.12/dist-packages/megatron/core/model_parallel_config.py",
            "__post_init__",
            "CFG010",
        ),
        # a feature refused unless another is on, in a config class: the value set
        (
            "ValueError: Cannot defer embedding wgrad compute when gradient accumulation fusion is not used",
            "/usr/local/lib/python3.12/dist-packages/megatron/core/model_parallel_config.py",
            "__post_init__",
            "CFG014",
        ),
        # an option a release removed, refused when it is set anyway
        (
            "ValueError: moe_router_topk_limited_devices is deprecated and replaced by "
            "moe_router_group_topk and moe_router_num_groups.",
            "/usr/local/lib/python3.12/dist-packages/megatron/core/transformer/transformer_config.py",
            "__post_init__",
            "CFG014",
        ),
        # an engine feature a rollout setting switches on, refused for this model
        (
            "NotImplementedError: Prefix caching is not supported for Mamba yet.",
            "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py",
            "get_kv_cache_spec",
            "CFG014",
        ),
        # a choice named in code's spelling, refused for this model
        (
            "ValueError: trtllm_mla backend can only be used with MLA models.",
            "/usr/local/lib/python3.12/dist-packages/sglang/srt/model_executor/model_runner.py",
            "_get_attention_backend_from_str",
            "CFG014",
        ),
        # a model split refused where the refusing function names itself: the split
        (
            "NotImplementedError: Pipeline parallelism is not yet supported in model_forward_step.",
            "/opt/verl/verl/workers/engine/torchtitan/transformer_impl.py",
            "model_forward_step",
            "CFG010",
        ),
        # an engine layer refusing a model split for this kind of model
        (
            "AssertionError: Tensor parallel currently not supported for quantized models.",
            "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/layers/mamba/mamba_mixer2.py",
            "__init__",
            "CFG010",
        ),
        # values to choose one of (a backend's names), not options to set
        (
            "AssertionError: fa3, aiter, or triton is required for Llama4 model",
            "/usr/local/lib/python3.12/dist-packages/sglang/srt/server_args.py",
            "model_specific_adjustments",
            "CFG014",
        ),
        (
            "ValueError: draft_model_path or speculative_config_path is needed when speculative decoding is on",
            "/usr/local/lib/python3.12/dist-packages/sglang/srt/server_args.py",
            "model_specific_adjustments",
            "CFG011",
        ),
    ],
)
def test_the_words_of_a_refusal_choose_between_the_codes(last: str, path: str, func: str, code: str) -> None:
    first = diagnose_text(_tb(last, path, func, "raise ValueError(msg)"), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == (code, "medium")


def test_a_class_left_for_the_user_to_implement_is_not_a_setting() -> None:
    log = (
        "Error executing job with overrides: ['+actor_rollout_ref.model.offload_handler=my.Handler']\n"
        + _tb(
            "NotImplementedError: tensor_push is not implemented in OffloadHandler class. Inherit this class "
            "and implement your custom tensor_push.",
            "/opt/verl/verl/utils/activation_offload.py",
            "tensor_push",
            "raise NotImplementedError(",
        )
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == []


def test_a_message_names_a_set_section_or_its_class() -> None:
    log = "Error executing job with overrides: ['actor_rollout_ref.model.tiled_mlp.enabled=True']\n" + _tb(
        "ValueError: TiledMLP does not support model_type='qwen3_moe'. Supported types: ['llama', 'qwen2']",
        "/opt/verl/verl/models/transformers/tiled_mlp.py",
        "apply_tiled_mlp_monkey_patch",
        "raise ValueError(",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert first.rule == "CFG014"
    assert "tiled_mlp" in first.basis


def test_a_missing_dataframe_column_verl_asked_for_is_a_missing_dataset_field() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/trainer/main_eval.py", line 43, in main\n'
        "    responses = dataset[config.data.response_key]\n"
        '  File "/usr/lib/python3/dist-packages/pandas/core/frame.py", line 4378, in __getitem__\n'
        "    indexer = self.columns.get_loc(key)\n"
        '  File "/usr/lib/python3/dist-packages/pandas/core/indexes/base.py", line 3648, in get_loc\n'
        "    raise KeyError(key) from err\n"
        "KeyError: 'responses'\n"
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG012", "medium")
    # the same lookup in code that is not verl's says nothing about verl's data
    outside = log.replace("/opt/verl/verl/trainer/main_eval.py", "/home/u/analysis.py")
    assert [f.rule for f in diagnose_text(outside, _CATALOG).findings] == []


_MERGER_TB = (
    "Traceback (most recent call last):\n"
    '  File "/opt/verl/verl/model_merger/__main__.py", line 73, in <module>\n'
    "    main()\n"
    '  File "/opt/verl/verl/model_merger/fsdp_model_merger.py", line 210, in merge_and_save\n'
    "    merged_state_dict = self._merge_by_placement(model_state_dict_lst, placement)\n"
)


def test_a_clue_yields_to_an_exclusion_seen_on_any_of_its_lines() -> None:
    # The merger's traceback ends in an exception; the clue holds for a merge that failed, not for
    # a cause with its own rule (a package missing) whose exception line comes before the frames
    # Python prints for the error raised while handling it.
    failed = _MERGER_TB + "RuntimeError: zero-dimensional tensor (at position 0) cannot be concatenated\n"
    assert [f.rule for f in diagnose_text(failed, _CATALOG).findings] == ["FLOW011"]
    missing = (
        "ModuleNotFoundError: No module named 'megatron'\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        + _MERGER_TB
        + "RuntimeError: the Megatron backend needs megatron.core\n"
    )
    assert "FLOW011" not in [f.rule for f in diagnose_text(missing, _CATALOG).findings]
    # the upload after the merge, failing in its own frame, is the merge's command failing after it
    # wrote its folder: said so
    upload = _MERGER_TB.replace(
        'fsdp_model_merger.py", line 210, in merge_and_save',
        'base_model_merger.py", line 476, in upload_to_huggingface',
    )
    timed_out = upload + "RuntimeError: Unexpected error during upload: The read operation timed out\n"
    [finding] = diagnose_text(timed_out, _CATALOG).findings
    assert finding.rule == "FLOW011" and "--hf_upload_path" in finding.cause


def test_the_mergers_command_line_refused_is_a_failed_merge() -> None:
    log = (
        "usage: __main__.py [-h] {merge,test} ...\n"
        "__main__.py: error: unrecognized arguments: --hf_model_path ckpt/global_step_8/actor/huggingface\n"
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["FLOW011"]
    other = log.replace("{merge,test} ...", "--model MODEL")
    assert [f.rule for f in diagnose_text(other, _CATALOG).findings] == []


def test_an_import_error_saying_a_module_is_not_available_names_it() -> None:
    found = classify("msprobe is not available but precision_debugger.strict is True", "ImportError")
    assert found is not None and (found.code, found.groups["module"]) == ("ENV009", "msprobe")
    # the same words raised as a ValueError are not about an import
    assert classify("Cuda is not available.", "ValueError") is None


def test_a_guess_from_frames_yields_to_the_exception_that_explains_the_traceback() -> None:
    """An import error's Ray envelope and the rollout's frames alone would suggest an engine of
    another version; the traceback's own exception (a package not installed) explains it, so
    the guess is noise."""
    text = (
        "ray.exceptions.RayTaskError(ImportError): ray::WorkerDict.actor_rollout_init_model() "
        "(pid=22741, ip=10.10.1.4, actor_id=7f30e2d8, repr=<verl.single_controller.ray.base.WorkerDict object>)\n"
        '  File "/root/verl/verl/workers/fsdp_workers.py", line 558, in init_model\n'
        "    self.rollout, self.rollout_sharding_manager = self._build_rollout()\n"
        '  File "/root/verl/verl/workers/fsdp_workers.py", line 431, in _build_rollout\n'
        "    rollout = vllm_rollout_cls(model_path=local_path, config=self.config.rollout)\n"
        '  File "/root/verl/verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py", line 149, in __init__\n'
        "    self.inference_engine = LLM(\n"
        '  File "/usr/local/lib/python3.10/dist-packages/vllm/model_executor/model_loader/loader.py", '
        "line 913, in _get_quantized_weights_iterator\n"
        "    import bitsandbytes\n"
        "ModuleNotFoundError: No module named 'bitsandbytes'\n"
    )
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings] == ["ENV009"]


def test_a_model_path_the_merger_was_given_is_the_merge_that_failed() -> None:
    """The merger pointed at a folder that is not a Hugging Face model (actor/huggingface instead
    of actor/): the model-path error is how the merge failed, so the merger's finding stands alone."""
    site = "/opt/venv/lib/python3.11/site-packages"
    path = "checkpoints/demo/run1/global_step_8/actor/huggingface/huggingface"
    text = (
        "Traceback (most recent call last):\n"
        f'  File "{site}/huggingface_hub/utils/_validators.py", line 133, in validate_repo_id\n'
        "    raise HFValidationError(\n"
        "huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or "
        f"'namespace/repo_name': '{path}'. Use `repo_type` argument if needed.\n"
        "\n"
        "During handling of the above exception, another exception occurred:\n"
        "\n"
        "Traceback (most recent call last):\n"
        f'  File "{site}/verl/model_merger/__main__.py", line 60, in main\n'
        "    merger = FSDPModelMerger(config)\n"
        f'  File "{site}/verl/model_merger/base_model_merger.py", line 202, in __init__\n'
        "    self.model_config = AutoConfig.from_pretrained(\n"
        f'  File "{site}/transformers/utils/hub.py", line 488, in cached_files\n'
        '    raise OSError(f"{e}") from e\n'
        f"OSError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '{path}'. "
        "Use `repo_type` argument if needed.\n"
    )
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings] == ["FLOW011"]


def test_a_guess_from_an_exceptions_class_yields_to_a_known_message_of_the_same_traceback() -> None:
    """transformers refuses the model class; verl catches that and raises its own message, which
    a rule knows: the guess from the first exception's class is not a second answer."""
    text = (
        "(TaskRunner pid=3771) Traceback (most recent call last):\n"
        '(TaskRunner pid=3771)   File "/usr/local/lib/python3.10/dist-packages/transformers/models/auto/'
        'auto_factory.py", line 567, in from_pretrained\n'
        "(TaskRunner pid=3771)     raise ValueError(\n"
        "(TaskRunner pid=3771) ValueError: Unrecognized configuration class <class 'transformers_modules.m."
        "configuration_internlm2.InternLM2Config'> for this kind of AutoModel: AutoModelForTokenClassification.\n"
        "(TaskRunner pid=3771) \n"
        "(TaskRunner pid=3771) The above exception was the direct cause of the following exception:\n"
        "(TaskRunner pid=3771) \n"
        "(TaskRunner pid=3771) Traceback (most recent call last):\n"
        '(TaskRunner pid=3771)   File "/opt/verl/verl/utils/model.py", line 517, in load_valuehead_model\n'
        '(TaskRunner pid=3771)     raise RuntimeError(f"model({local_path}) is not a value head model, '
        'please install trl to make it valid") from e\n'
        "(TaskRunner pid=3771) RuntimeError: model(/models/internlm2_5-7b-chat) is not a value head model, "
        "please install trl to make it valid\n"
    )
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings] == ["ENV009"]


def test_torch_code_other_than_its_launcher_does_not_check_settings() -> None:
    text = _tb(
        "ValueError: Expected input batch_size (4) to match target batch_size (8).",
        path="/usr/local/lib/python3.10/dist-packages/torch/nn/functional.py",
        func="cross_entropy",
        statement="raise ValueError(msg)",
    )
    report = diagnose_text(text, _CATALOG)
    assert not report.findings
    assert [u.exception for u in report.unrecognized] == ["ValueError"]


def test_the_dataloaders_runtime_errors_are_not_its_settings() -> None:
    text = _tb(
        "RuntimeError: Too many open files. Communication with the workers is no longer possible. Please increase "
        "the limit using `ulimit -n` in the shell or change the sharing strategy.",
        path="/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py",
        func="_try_get_data",
        statement="raise RuntimeError(msg) from e",
    )
    assert not diagnose_text(text, _CATALOG).findings


def test_a_guess_from_a_tracebacks_shape_yields_to_the_words_of_its_exception() -> None:
    """A traceback through verl's weight sync ending in an exception is a weight-sync guess; when
    a rule knows the exception's words (a transfer bucket set to 0), that is the one answer."""
    text = (
        "(WorkerDict pid=4411) Traceback (most recent call last):\n"
        '(WorkerDict pid=4411)   File "/root/verl/verl/workers/sharding_manager/fsdp_sglang.py", line 123, '
        "in update_weights\n"
        "(WorkerDict pid=4411)     for batch in get_named_tensor_buckets(named_tensors, update_weights_bucket_bytes):\n"
        '(WorkerDict pid=4411)   File "/root/verl/verl/workers/rollout/sglang_rollout/utils.py", line 92, '
        "in get_named_tensor_buckets\n"
        '(WorkerDict pid=4411)     raise ValueError(f"bucket_bytes must be greater than 0, got {bucket_bytes}")\n'
        "(WorkerDict pid=4411) ValueError: bucket_bytes must be greater than 0, got 0\n"
    )
    findings = diagnose_text(text, _CATALOG).findings
    assert [f.rule for f in findings] == ["CFG014"]
    commands = [c for fix in findings[0].fixes for c in fix.commands]
    assert any("update_weights_bucket_megabytes=" in c for c in commands)


def test_a_call_with_arguments_another_release_takes_is_not_a_setting_refused() -> None:
    """Megatron's forward() refusing a keyword its caller passes: code from two releases, not a
    value the run was given."""
    text = _tb(
        "TypeError: TransformerLayer.forward() got an unexpected keyword argument 'rotary_pos_emb_cache'",
        path="/usr/local/lib/python3.12/dist-packages/megatron/core/transformer/transformer_block.py",
        func="forward",
        statement="hidden_states = layer(",
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(text, _CATALOG).findings]


def test_a_refusal_that_sends_the_user_to_the_models_config_json_is_not_a_setting() -> None:
    """verl refusing a checkpoint's own quantization: the model, not a value the run was given."""
    text = _tb(
        "AssertionError: quantization is not supported for now, please modify the config.json to remove "
        "quantization_config",
        path="/opt/verl/verl/utils/megatron_utils.py",
        func="convert_config",
        statement="assert quant_config is None, (",
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(text, _CATALOG).findings]


def test_what_the_installed_release_of_a_package_lacks_is_a_version_mismatch() -> None:
    found = classify(
        "The installed VeOmni's OpsImplementationConfig has no ['rms_norm_implementation'] fields",
        "ValueError",
    )
    assert found is not None and (found.code, found.groups["package"]) == ("ENV013", "veomni")


def test_a_chained_exception_about_the_same_package_is_not_a_second_answer() -> None:
    """vLLM's bitsandbytes loader: the version check, then the re-raise asking to install."""
    e = "(EngineCore_DP0 pid=30188) ERROR 09-18 16:40:21 [core.py:708] "
    text = (
        f"{e}ImportError: bitsandbytes version is wrong. Please install bitsandbytes>=0.46.1.\n"
        f"{e}\n"
        f"{e}During handling of the above exception, another exception occurred:\n"
        f"{e}\n"
        f"{e}ImportError: Please install bitsandbytes>=0.46.1 via `pip install bitsandbytes>=0.46.1` to use "
        "bitsandbytes quantizer.\n"
    )
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings] == ["ENV013"]


def test_an_environment_error_inside_the_merger_is_the_environment_not_the_merge() -> None:
    """The merger fails because transformers disabled PyTorch (too old): the traceback's shape
    says where (the merger), the exception's words say what (a torch release too old)."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/model_merger/base_model_merger.py", line 236, in get_transformers_auto_model_class\n'
        "    return AutoModelForCausalLM\n"
        '  File "/usr/local/lib/python3.10/dist-packages/transformers/utils/import_utils.py", line 207, in '
        "requires_backends\n"
        '    raise ImportError("".join(failed))\n'
        "ImportError: \n"
        "AutoModelForCausalLM requires PyTorch >= 2.6, but PyTorch was not found or an older version is installed.\n"
        "Please install or upgrade PyTorch by following the instructions on the installation page:\n"
    )
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings] == ["ENV013"]


@pytest.mark.parametrize(
    "message",
    [
        "apply_chat_template requires jinja2>=3.1.6 to be installed. Your version is 3.1.4.",
        "Please install bitsandbytes>=0.46.1, but found 0.45.3.",
    ],
)
def test_an_install_request_that_names_the_installed_version_is_a_version_mismatch(message: str) -> None:
    found = classify(message, "ImportError")
    assert found is not None and found.code == "ENV013"


def test_a_model_folders_description_missing_from_a_step_folder_is_the_wrong_model_path() -> None:
    """An adapter path pointing at a training step folder (no adapter_config.json) is a model path
    error; a weight shard missing under a checkpoint being saved is not."""
    found = classify("adapter_config.json not found in /ckpt/sft_lora/global_step_600", "FileNotFoundError")
    assert found is not None and found.code == "CFG017"
    saving = classify(
        "No such file or directory: /ckpt/global_step_1/actor/huggingface/model.layers.10.weight.safetensors",
        "FileNotFoundError",
    )
    assert saving is None or saving.code != "CFG017"
    # Hugging Face weights looked for right in the step's actor folder, where verl writes only its
    # own shards: that folder was given where a model folder belongs.
    weights = classify(
        "Cannot find /data/ckpt/grpo/global_step_200/actor/model.safetensors", "AssertionError"
    )
    assert weights is not None and weights.code == "CFG017"


def _hydra_tb(path: str, func: str, last: str, command: str = "") -> str:
    """Hydra composing the config under HYDRA_FULL_ERROR=1: its own frames, then the error."""
    site = "/usr/local/lib/python3.10/dist-packages/hydra"
    return (
        f"{command}\n"
        "Traceback (most recent call last):\n"
        f'  File "{site}/_internal/hydra.py", line 105, in run\n'
        "    cfg = self.compose_config(\n"
        f'  File "{site}/{path}", line 95, in {func}\n'
        "    raise ValueError(\n"
        f"{last}\n"
    )


@pytest.mark.parametrize(
    ("path", "func", "last", "code"),
    [
        (
            "core/override_parser/types.py",
            "__next__",
            "hydra.errors.HydraException: Invalid range values (start:1, stop:4, step:0)",
            "CFG016",
        ),
        (
            "_internal/defaults_list.py",
            "__init__",
            "ValueError: Config group override must be a string or a list. Got NoneType",
            "CFG016",
        ),
        (
            "_internal/config_repository.py",
            "_create_defaults_list",
            "ValueError: Unsupported item value in defaults : dict. Supported: string or list",
            "CFG020",
        ),
        # the grammar of an override's functions (`tag(...)`, `choice(...)`)
        (
            "_internal/grammar/grammar_functions.py",
            "tag",
            "ValueError: tag arguments type must be string, got int",
            "CFG016",
        ),
        # a search path whose scheme no config source reads
        (
            "_internal/sources_registry.py",
            "resolve",
            "ValueError: No config source registered for schema hdfs, supported types : [file, pkg, structured]",
            "CFG020",
        ),
        # instantiate refusing the entry it builds from (an agent loop's `_args_` given as a
        # mapping, `_partial_` as text): Hydra's own InstantiationException is no wrapper here
        (
            "_internal/instantiate/_instantiate2.py",
            "_extract_pos_args",
            "hydra.errors.InstantiationException: Unsupported _args_ type: 'DictConfig'. value: '{'max_turns': 8}'",
            "CFG014",
        ),
        (
            "_internal/instantiate/_instantiate2.py",
            "instantiate_node",
            "TypeError: Instantiation: _partial_ flag must be a bool, got <class 'str'>",
            "CFG014",
        ),
    ],
)
def test_an_error_hydra_raised_composing_the_config_is_an_override_or_a_config_file(
    path: str, func: str, last: str, code: str
) -> None:
    """Where in Hydra it was raised says which: applying the overrides, reading the config
    files, or instantiating an entry of the config; a command line that sets HYDRA_FULL_ERROR=1 is the command, not Hydra's echo."""
    command = "$ HYDRA_FULL_ERROR=1 python3 -m verl.trainer.main_ppo --multirun 'trainer.seed=range(1,4,0)'"
    report = diagnose_text(_hydra_tb(path, func, last, command), _CATALOG)
    assert [f.rule for f in report.findings][:1] == [code]
    assert report.findings[0].confidence == "medium"
    assert not report.unrecognized


def test_a_refusal_naming_a_value_the_run_chose_names_that_option() -> None:
    """`token_k1` is the value of algorithm.rollout_correction.rollout_rs on the command line: a
    check in verl that names it refuses that choice; a function of the user's named by the
    message (custom_reward_function.name) is code, not a choice."""
    command = (
        "+ python3 -m verl.trainer.main_ppo algorithm.rollout_correction.rollout_rs=token_k1 "
        "custom_reward_function.name=compute_score\n"
    )
    refused = command + _tb(
        "ValueError: Threshold specification for token_k1 must include lower and upper bounds.",
        path="/opt/verl/verl/trainer/ppo/rollout_corr_helper.py",
        func="compute_rollout_rejection_mask",
    )
    report = diagnose_text(refused, _CATALOG)
    assert report.findings and report.findings[0].rule == "CFG014"
    assert "algorithm.rollout_correction.rollout_rs" in report.findings[0].basis
    user_code = command + _tb(
        "AssertionError: GDPO reward key 'format' not found. Make sure your compute_score returns it.",
        path="/opt/verl/verl/trainer/ppo/core_algos.py",
        func="compute_gdpo_outcome_advantage",
    )
    assert not [f for f in diagnose_text(user_code, _CATALOG).findings if f.rule == "CFG014"]


@pytest.mark.parametrize(
    ("last", "path", "func"),
    [
        # transformers validating the RoPE parameters of the model's config.json
        (
            "KeyError: \"Missing required keys in `rope_scaling` for 'rope_type'='yarn': {'factor'}\"",
            "/usr/local/lib/python3.10/dist-packages/transformers/modeling_rope_utils.py",
            "_check_received_keys",
        ),
        # SGLang's config class for one model family
        (
            "ValueError: `rope_scaling` must be a dictionary with two fields, `type` and `factor`, got None",
            "/usr/local/lib/python3.10/dist-packages/sglang/srt/configs/deepseekvl2.py",
            "__init__",
        ),
        # the engines' RoPE layers, and their config classes for one model family
        (
            "ValueError: Bailing M-RoPE requires equal H and W sections, got height_size=24 and width_size=16",
            f"{_SITE}/vllm/model_executor/layers/rotary_embedding/bailing_mrope.py",
            "_validate_bailing_mrope_config",
        ),
        (
            "ValueError: HYV4 sparse attention requires q_lora_rank",
            f"{_SITE}/sglang/srt/configs/hy_v4.py",
            "__init__",
        ),
        (
            "AssertionError: expect `visual_tokenizer_config` to be instance of PretrainedConfig or dict, "
            "but got <class 'str'> type",
            f"{_SITE}/vllm/transformers_utils/configs/ovis.py",
            "__init__",
        ),
        # transformers' config class built from a config.json that holds generation settings
        (
            "ValueError: Some generation parameters are set in the model config. These should go into "
            "`model.generation_config` as opposed to `model.config`.",
            f"{_SITE}/transformers/configuration_utils.py",
            "__init__",
        ),
        # verl reading the architecture off the model's config.json: none, or more than one
        (
            "AssertionError: Expect only one architecture, got None",
            "/opt/verl/verl/workers/config/model.py",
            "__post_init__",
        ),
        (
            "ValueError: Expect only one architecture, got ['InternVLChatModel', 'InternVLForConditionalGeneration']",
            "/opt/verl/verl/workers/config/model.py",
            "__post_init__",
        ),
    ],
)
def test_what_the_model_config_json_holds_is_no_setting_and_no_model_path(
    last: str, path: str, func: str
) -> None:
    """A library or verl refusing what the model folder's config.json describes: no option of
    the run holds it and the path does name a model folder, so no code's answer; the exception is
    listed as not recognized, with its own words."""
    report = diagnose_text(_tb(last, path, func), _CATALOG)
    assert not report.findings
    assert [u.text.split(" ", 2)[-1] for u in report.unrecognized] == [last]


@pytest.mark.parametrize(
    "last",
    [
        "ValueError: Weight output_partition_size = 1184 is not divisible by weight quantization block_n = 128.",
        # an MoE layer's share, in the engines' fp8 MoE methods
        "ValueError: The output_size of gate's and up's weight = 192 is not divisible by weight quantization "
        "block_n = 128.",
        "ValueError: The input_size of down's weight = 192 is not divisible by weight quantization block_k = 128.",
    ],
)
def test_a_layer_share_that_a_quantization_block_does_not_divide_is_the_model_split(last: str) -> None:
    text = _tb(
        last,
        path="/usr/local/lib/python3.10/dist-packages/sglang/srt/layers/quantization/fp8.py",
        func="create_weights",
    )
    assert diagnose_text(text, _CATALOG).findings[0].rule == "CFG010"


def test_an_envelope_naming_distbackenderror_with_its_message_cut_is_an_nccl_failure() -> None:
    """The barrier warning before it stays a warning; the failed NCCL call is the answer."""
    text = (
        "(WorkerDict pid=5644) [rank0]:[W831 14:46:12.241792627 ProcessGroupNCCL.cpp:4718] [PG ID 0 PG GUID 0 "
        "Rank 0]  using GPU 0 as device used by this process is currently unknown. This can potentially cause "
        "a hang if this rank to GPU mapping is incorrect.\n"
        "ray.exceptions.RayTaskError(DistBackendError): ray::WorkerDict.ref_init_model() (pid=5645, ip=10.0.0.3)\n"
        '  File "/opt/verl/verl/workers/fsdp_workers.py", line 233, in _build_model_optimizer\n'
        "    torch.distributed.barrier()\n"
    )
    report = diagnose_text(text, _CATALOG)
    assert [f.rule for f in report.findings][:1] == ["DIST007"]
    assert report.findings[0].confidence == "medium"


def test_a_library_named_like_a_distribution_that_a_feature_requires_is_a_missing_package() -> None:
    """transformers runs its two sentences together (`libraryPlease`)."""
    found = classify(
        "Using fbgemm fp8 quantization requires fbgemm-gpu libraryPlease install the latest version of "
        "fbgemm-gpu library by following : https://pytorch.org/FBGEMM/",
        "ImportError",
    )
    assert found is not None and (found.code, found.groups.get("pkg")) == ("ENV009", "fbgemm-gpu")


def test_a_refused_value_that_is_empty_is_a_setting_left_unset() -> None:
    """`--nproc_per_node=$NGPU` with NGPU unset: torchrun refuses '' as a number."""
    text = _tb(
        "ValueError: invalid literal for int() with base 10: ''",
        path="/usr/local/lib/python3.10/dist-packages/torch/distributed/run.py",
        func="determine_local_world_size",
    )
    assert diagnose_text(text, _CATALOG).findings[0].rule == "CFG011"


def test_a_node_count_that_must_be_above_zero_is_a_count_left_unset() -> None:
    """`NNODES=${SLURM_NNODES:-0}` outside an allocation: torchrun refuses 0 nodes, read like a
    separate pool's size left at its default 0."""
    text = _tb(
        "ValueError: The minimum number of rendezvous nodes (0) must be greater than zero.",
        path="/usr/local/lib/python3.10/dist-packages/torch/distributed/elastic/rendezvous/api.py",
        func="__init__",
    )
    assert diagnose_text(text, _CATALOG).findings[0].rule == "CFG011"


@pytest.mark.parametrize(
    ("last", "path", "func", "code"),
    [
        # a registry refusing the name it was given
        (
            "ValueError: Checkpoint engine kimi not registered",
            "/opt/verl/verl/checkpoint_engine/base.py",
            "new",
            "CFG014",
        ),
        # a refusal that says which option to set, or to enable
        (
            "ValueError: Continuous Token cannot append after an assistant turn when thinking is enabled. "
            "Pass tools, or set drop_thinking=False in chat_template_kwargs.",
            "/opt/verl/verl/utils/tokenizer/deepseek.py",
            "_assert_prefix_is_stable",
            "CFG014",
        ),
        (
            "RuntimeError: Dynamic CP is enabled on this engine, but the parallel state was initialized "
            "without it. Enable dynamic_context_parallel consistently on every colocated engine.",
            "/opt/verl/verl/workers/engine/megatron/transformer_impl.py",
            "_build_parallel_state",
            "CFG014",
        ),
        # a tool's create() reads its arguments from the sample's tools_kwargs
        (
            "ValueError: Missing required 'image' parameter in kwargs",
            "/opt/verl/verl/tools/image_zoom_in_tool.py",
            "create",
            "CFG012",
        ),
    ],
)
def test_refusals_that_name_a_registry_value_or_the_option_to_set(
    last: str, path: str, func: str, code: str
) -> None:
    first = diagnose_text(_tb(last, path, func, "raise ValueError(msg)"), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == (code, "medium")


@pytest.mark.parametrize(
    ("message", "path", "code"),
    [
        # a limit a request passed
        ("ValueError: Cannot request more than 20 logprobs.", f"{_SITE}/vllm/engine/llm_engine.py", "CFG014"),
        # an engine's code for one architecture refusing what the model's config.json holds: the
        # engine cannot build the model and does not start
        (
            "ValueError: Unsupported activation: gelu_pytorch_tanh. Only silu is supported for now.",
            f"{_SITE}/sglang/srt/models/qwen2.py",
            "FLOW010",
        ),
        # ... but a backend it does not support is a setting's choice
        (
            "RuntimeError: Qwen2.5-VL does not support _Backend.FLASHINFER backend now.",
            f"{_SITE}/vllm/model_executor/models/qwen2_5_vl.py",
            "CFG014",
        ),
        # an option refused under a parallel size or for a kind of model is that option; a parallel
        # size refused under another is the layout
        (
            "ValueError: data_parallel_external_lb can only be set when data_parallel_size > 1",
            f"{_SITE}/vllm/config/parallel.py",
            "CFG014",
        ),
        (
            "ValueError: --enable-dp-lm-head is only supported for models whose heads are replicated "
            "(attn_tp_size=1). Got 4",
            f"{_SITE}/sglang/srt/server_args.py",
            "CFG014",
        ),
        (
            "ValueError: pipeline_parallel_size can only be set when tensor_parallel_size > 1",
            f"{_SITE}/vllm/config/parallel.py",
            "CFG010",
        ),
        # a quoted value the message opens with, refused by name
        (
            "KeyError: '`sdpa2` is not a valid attention implementation registered in the `AttentionInterface`'",
            f"{_SITE}/transformers/modeling_utils.py",
            "CFG014",
        ),
        # a field a library says its config lacks, wherever its code is
        (
            "ValueError: Missing required field 'bucket' in storage config for 'remote' backend",
            f"{_SITE}/sglang/srt/mem_cache/storage/backend_factory.py",
            "CFG011",
        ),
    ],
)
def test_library_refusals_told_by_the_value_shown_or_the_code_that_refuses(
    message: str, path: str, code: str
) -> None:
    first = diagnose_text(_tb(message, path, "__init__"), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == (code, "medium")


def test_unpacking_what_an_engine_function_returned_is_an_engine_version_mismatch() -> None:
    log = _tb(
        "ValueError: too many values to unpack (expected 3)",
        "/opt/verl/verl/workers/rollout/sglang_rollout/async_sglang_server.py",
        "launch_server",
        "self.tokenizer_manager, self.template_manager, self.scheduler_info = _launch_subprocesses(",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("ENV004", "medium")
    assert "_launch_subprocesses" in first.basis
    # The same error unpacking verl's own data is not a version mismatch.
    own = _tb(
        "ValueError: too many values to unpack (expected 2)",
        "/opt/verl/verl/trainer/ppo/ray_trainer.py",
        "fit",
        "batch, metrics = self._step(batch)",
    )
    assert [f.rule for f in diagnose_text(own, _CATALOG).findings] == []


def test_a_wrapped_exception_message_is_read_as_the_terminal_printed_it() -> None:
    # Cut to one width mid-word ("s" / "et drop_thinking"): joined as printed, the option reads.
    message = (
        "ValueError: Continuous Token cannot append after an assistant turn when thinking is enabled "
        "and drop_thinking is on, because dropping reasoning would rewrite the prefix. Pass tools, or "
        "set drop_thinking=False in chat_template_kwargs."
    )
    width = 93  # the second cut falls between the "s" and the "et" of "set drop_thinking"
    wrapped = "\n".join(message[i : i + width] for i in range(0, len(message), width))
    log = (
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/utils/tokenizer/deepseek.py", line 338, in _assert_prefix_is_stable\n'
        "    raise ValueError(\n"
        f"{wrapped}\n"
    )
    assert wrapped.split("\n")[2].startswith("et drop_thinking")
    first = diagnose_text(log, _CATALOG).findings[0]
    assert first.rule == "CFG014"


def test_a_clue_read_from_frames_stands_below_a_message_the_log_prints(run_cli) -> None:
    # The engine's death is said in words (a symptom rule, an echo); the weight sync's traceback
    # only matches a clue's frames. The message leads, and the clue does not hide it.
    text = (
        "(WorkerDict pid=5120, ip=10.0.0.2) Received sigquit from a child process. It usually means the "
        "child failed.\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/workers/rollout/sglang_rollout/http_server_engine.py", line 770, '
        "in update_weights_from_tensor\n"
        "    return await self._make_async_request(...)\n"
        "RuntimeError: Failed to complete async request to update_weights_from_tensor after 3 attempts\n"
    )
    report = json.loads(run_cli(["explain", "--format", "json"], stdin=text.encode()).stdout)
    assert [(f["rule"], f["basis"]) for f in report["findings"]] == [
        ("FLOW013", "message"),
        ("FLOW006", "clue"),
    ]


@pytest.mark.parametrize(
    ("last", "path", "func", "code"),
    [
        # a registry with nothing for the choices shown
        (
            "ValueError: No engine registered for device='npu', vendor='huawei', model_type='language_model', "
            "backend='automodel'",
            "/opt/verl/verl/workers/engine/base.py",
            "get_engine_cls",
            "CFG014",
        ),
        # a value of the wrong kind is refused, not missing
        (
            "TypeError: rollout_is_threshold must be specified as a float or a string threshold "
            "specification, not a boolean.",
            "/opt/verl/verl/trainer/ppo/rollout_corr_helper.py",
            "_parse_rollout_is_threshold",
            "CFG014",
        ),
        # a key with nothing configured for it, the configured ones listed
        (
            "ValueError: No teacher configured for routing key 'openai/gsm8k'. Configured teachers: ['code', 'math'].",
            "/opt/verl/verl/experimental/teacher_loop/teacher_manager.py",
            "_resolve_teacher_key",
            "CFG011",
        ),
        # the sample lacks the field a `*_key` option names: the data
        (
            "ValueError: Routing key is required for multi-teacher distillation (configured via "
            "distillation.teacher_key='domain').",
            "/opt/verl/verl/experimental/teacher_loop/teacher_manager.py",
            "_resolve_teacher_key",
            "CFG012",
        ),
    ],
)
def test_registries_kinds_and_lists_of_what_exists(last: str, path: str, func: str, code: str) -> None:
    first = diagnose_text(_tb(last, path, func, "raise ValueError(msg)"), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == (code, "medium")


# Refusals read by the mechanism that produces them (the raising library, its words), not by a signature.
_BY_MECHANISM = [
    # a kernel asking for a newer GPU by its architecture number, in any library
    (
        "RuntimeError: fused all-reduce cluster kernels require CUDA SM90 or newer",
        f"{_SITE}/sglang/kernels/ops/communication/all_reduce_fusion.py",
        "require_cluster_launch_arch",
        "ENV007",
    ),
    # ... or by the lowest compute capability it runs on, its words passed as a tuple
    (
        "RuntimeError: ('Flash attention currently only supported', 'for compute capability >= 80')",
        f"{_SITE}/vllm/model_executor/layers/lightning_attn.py",
        "forward",
        "ENV007",
    ),
    # an import asking for a package by name, known to the tables or not
    (
        "ImportError: Please install simm by following the instructions at https://example.org/simm "
        "to run SGLang with SimmConnector.",
        f"{_SITE}/sglang/srt/mem_cache/storage/simm/hicache_simm.py",
        "<module>",
        "ENV009",
    ),
    # the installed release of a package lacking what the caller needs
    (
        "RuntimeError: Installed mori does not expose UMBPStandaloneProcessConfig",
        f"{_SITE}/sglang/srt/mem_cache/storage/umbp/umbp_store.py",
        "_resolve_node_tags",
        "ENV013",
    ),
    (
        "ImportError: FlashInfer ReplaySSM requires a compatible flashinfer-python package",
        f"{_SITE}/vllm/model_executor/layers/mamba/ops/ssu_dispatch.py",
        "initialize_mamba_ssu_backend",
        "ENV013",
    ),
    # argparse's refusal of an engine flag's value is the engine's settings check
    (
        "argparse.ArgumentTypeError: --cuda-graph-config: unknown phase 'prefil', expected one of "
        "decode, prefill",
        f"{_SITE}/sglang/srt/model_executor/cuda_graph_config.py",
        "parse_cuda_graph_config_arg",
        "CFG014",
    ),
    # `Invalid X: must contain ...` refuses the value given; it is not a value left out
    (
        "ValueError: Invalid endpoint: must contain 'inproc' or 'tcp'",
        f"{_SITE}/sglang/srt/disaggregation/kv_events.py",
        "__post_init__",
        "CFG014",
    ),
    # a value that was not given, in the words `was not provided`
    (
        "ValueError: A speculative model was provided, but `num_speculative_tokens` was not provided",
        f"{_SITE}/vllm/v1/worker/gpu/spec_decode/speculator_config.py",
        "configure",
        "CFG011",
    ),
    # a feature a verl option switches on, refused by the model's own code
    (
        "ValueError: HyLiteForCausalLM is not compatible with gradient checkpointing. Make sure all the "
        "architecture support it by setting a boolean attribute `gradient_checkpointing` to modules of "
        "the model that uses checkpointing.",
        f"{_SITE}/transformers/modeling_utils.py",
        "_set_gradient_checkpointing",
        "CFG014",
    ),
    # the variables that choose a process's devices are settings of the launch
    (
        "RuntimeError: HIP_VISIBLE_DEVICES contains more devices than ROCR_VISIBLE_DEVICES",
        f"{_SITE}/torch/cuda/__init__.py",
        "_parse_visible_devices",
        "CFG014",
    ),
    # another library's samples are a dataset's rows, not a batch size
    (
        "ValueError: test_size=500 should be either positive and smaller than the number of samples 312 "
        "or a float in the (0, 1) range",
        f"{_SITE}/datasets/arrow_dataset.py",
        "train_test_split",
        "CFG014",
    ),
    # a path that is no dataset folder
    (
        "FileNotFoundError: Directory /data/gsm8k is neither a `Dataset` directory nor a `DatasetDict` "
        "directory.",
        f"{_SITE}/datasets/load.py",
        "load_from_disk",
        "CFG013",
    ),
    # an engine's code for one architecture (vLLM's newer models/ tree) refusing the model's shape:
    # the engine cannot build the model and does not start
    (
        "ValueError: Step5 DSA supports attention head dimensions 128 or 192, got 96.",
        f"{_SITE}/vllm/models/step5/nvidia/model.py",
        "__init__",
        "FLOW010",
    ),
    # a model file that is not the format its loader reads
    (
        "ValueError: /models/qwen-7b.gguf does not start with the GGUF magic bytes, so it is not a GGUF file.",
        f"{_SITE}/transformers/integrations/gguf/reader.py",
        "_read_metadata",
        "CFG017",
    ),
]


@pytest.mark.parametrize(
    ("message", "path", "func", "code"),
    [
        # a keyword typed with a letter twice
        (
            "ValueError: EAGLE is not supportted in attention backend torch_native",
            f"{_SITE}/sglang/srt/speculative/eagle_worker.py",
            "init_attention_backend",
            "CFG014",
        ),
        (
            "ValueError: The rendezvous configuration option 'join_timeout' must have a value specified.",
            f"{_SITE}/torch/distributed/elastic/rendezvous/utils.py",
            "_parse_rendezvous_config",
            "CFG011",
        ),
        (
            "AssertionError: world_size must be positive if using store",
            f"{_SITE}/torch/distributed/distributed_c10d.py",
            "init_process_group",
            "CFG011",
        ),
        # what the model is, but the message says which variable to set
        (
            "ValueError: Head size 80 is not supported by FlashAttention. Supported head sizes are: [64, 128]. "
            "Set VLLM_USE_V1=0 to use another attention backend.",
            f"{_SITE}/vllm/v1/attention/backends/flash_attn.py",
            "__init__",
            "CFG014",
        ),
    ]
    + _BY_MECHANISM,
)
def test_library_refusals_in_their_own_spelling(message: str, path: str, func: str, code: str) -> None:
    first = diagnose_text(_tb(message, path, func), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == (code, "medium")


def test_keywords_typed_with_a_doubled_letter_are_read_as_spelt() -> None:
    from verl_doctor.engine.fallbacks import forgive_doubled_letters

    assert forgive_doubled_letters("not supportted; Misssing key") == "not supported; Missing key"
    assert forgive_doubled_letters("support matters") == "support matters"


def test_a_feature_a_library_refuses_is_the_option_that_switches_it_on() -> None:
    log = _tb(
        "ValueError: OrionForCausalLM does not support gradient checkpointing.",
        f"{_SITE}/transformers/modeling_utils.py",
        "gradient_checkpointing_enable",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")
    assert "actor_rollout_ref.model.enable_gradient_checkpointing" in first.basis
    # A feature no option switches on says nothing about the run's settings.
    other = _tb(
        "ValueError: OrionForCausalLM does not support fused rotary kernels.",
        f"{_SITE}/transformers/modeling_utils.py",
    )
    assert [f.rule for f in diagnose_text(other, _CATALOG).findings] == []


def test_an_error_about_the_ascend_stack_is_an_npu_runtime_error() -> None:
    log = _tb(
        "RuntimeError: CANN toolkit info file does not exist: /opt/cann/aarch64-linux/ascend_toolkit_install.info",
        "/opt/verl/verl/utils/device.py",
        "get_npu_versions",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("ENV012", "medium")
    # the stack's file named, wherever it lies: the toolkit, not a data or model path
    log = _tb(
        "RuntimeError: CANN toolkit info file does not exist: /data/gsm8k/train.parquet",
        "/opt/verl/verl/utils/device.py",
        "get_npu_versions",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "ENV012"
    # a runtime error raised in code that only runs on NPUs, in words of its own
    log = _tb(
        "RuntimeError: Error checking IPC support: 507035", "/opt/verl/verl/plugin/platform/platform_npu.py"
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "ENV012"
    # a setting refused there is still the setting
    log = _tb(
        "ValueError: VLLM_ASCEND_ENABLE_MATMUL_ALLREDUCE=1 is not supported on Atlas A2",
        "/opt/verl/verl/utils/vllm/npu_vllm_patch.py",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG014"
    # a variable of the NPU stack's own environment refused by code only NPUs run is that stack's
    refused = (
        "ValueError: Environment variable `NPU_FA2_SPARSE_MODE` can only be set as 2 (top-left aligned causal "
        "mask) or 3 (down-right aligned causal mask)."
    )
    log = _tb(
        refused, f"{_SITE}/transformers/integrations/npu_flash_attention.py", "<module>", "raise ValueError("
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["ENV012"]
    # ... and transformers' lazy import handing it on adds no reading of its own
    relay = _tb(
        "RuntimeError: Failed to import transformers.models.bloom.modeling_bloom because of the following error "
        "(look up to see its traceback):\n" + refused.split(": ", 1)[1],
        f"{_SITE}/transformers/utils/import_utils.py",
        "_get_module",
        "raise RuntimeError(",
    )
    assert [f.rule for f in diagnose_text(log + relay, _CATALOG).findings] == ["ENV012"]


def test_a_misspelt_key_is_shown_with_its_nearest_real_key_and_nothing_masked(run_cli) -> None:
    # An interpolation naming a key verl does not have: the fix names the real one. A traceback's
    # source line (`raise InterpolationKeyError(f"Interpolation key '{inter_key}' not found")`)
    # is no value for the key.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/dist-packages/omegaconf/base.py", line 722, in _resolve_node_interpolation\n'
        "    raise InterpolationKeyError(f\"Interpolation key '{inter_key}' not found\")\n"
        "omegaconf.errors.InterpolationKeyError: Interpolation key 'trainer.project_nam' not found\n"
    )
    out = run_cli(["explain"], stdin=text.encode()).stdout.decode()
    assert "`trainer.project_nam` is not a verl config key" in out
    assert "${trainer.project_name}" in out
    assert "{inter_key}" not in out.split("fix:")[1] and "****" not in out


@pytest.mark.parametrize(
    ("message", "path", "gone"),
    [
        (
            "RuntimeError: get_dist_checkpoint_path is deprecated. The checkpoint layout now splits "
            "optimizer/extra/(model) into separate directories. Use the explicit helpers.",
            "/opt/verl/verl/utils/megatron_utils.py",
            "is deprecated",
        ),
        # (a call whose way of working verl retired)
        (
            "NotImplementedError: AsyncRollout does not support blocking generate_batch(). The "
            "colocated engine mode was retired in a later release; use the server manager instead.",
            "/opt/verl/verl/workers/rollout/sglang_rollout/sglang_rollout.py",
            "was retired",
        ),
    ],
)
def test_a_function_verl_says_is_gone_is_code_written_for_another_verl(
    message: str, path: str, gone: str
) -> None:
    log = _tb(message, path, "call", "raise")
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("ENV005", "medium")
    # (the same call named with nothing gone is no release's doing)
    busy = diagnose_text(log.replace(gone, "is busy"), _CATALOG).findings
    assert "ENV005" not in [f.rule for f in busy]


def test_a_model_split_the_code_does_not_trust_yet_is_the_parallel_layout() -> None:
    log = _tb(
        "AssertionError: qwen2_5_vl's context parallel is not accurate yet",
        "/opt/verl/verl/models/mcore/model_forward.py",
        "gptmodel_forward_qwen2_5_vl",
        "assert mpu.get_context_parallel_world_size() == 1, msg",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG010", "medium")


def test_a_frame_cut_inside_its_in_is_still_the_raising_frame() -> None:
    # `..., line 355, i` / `n parse_and_validate_env_vars`: the terminal cut the word "in".
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/dist-packages/ray/_private/runtime_env/validation.py", line 355, i\n'
        "n parse_and_validate_env_vars\n"
        "    raise TypeError(\n"
        "TypeError: runtime_env['env_vars'] must be of type Dict[str, str], got <class 'list'>\n"
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")


def test_a_model_path_set_to_a_training_checkpoint_folder_is_the_error() -> None:
    # Whatever loading then says (here the tokenizer transformers could not build), the path is a
    # verl checkpoint's actor folder, not a Hugging Face one; the same run with a model folder
    # says nothing of the kind.
    def log(path: str) -> str:
        return (
            f"Error executing job with overrides: ['actor_rollout_ref.model.path={path}', 'trainer.nnodes=1']\n"
            "Traceback (most recent call last):\n"
            '  File "/opt/verl/verl/utils/tokenizer.py", line 60, in hf_tokenizer\n'
            "    tokenizer = AutoTokenizer.from_pretrained(name_or_path, **kwargs)\n"
            "ValueError: Couldn't instantiate the backend tokenizer from one of: (1) a `tokenizers` library "
            "serialization file, (2) a slow tokenizer instance to convert or (3) an equivalent slow tokenizer "
            "class to instantiate and convert. You need to have sentencepiece or tiktoken installed to convert "
            "a slow tokenizer to a fast one.\n"
        )

    first = diagnose_text(log("/ckpt/run1/global_step_8/actor"), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG017", "high")
    assert "global_step_8/actor" in first.cause
    assert "CFG017" not in [f.rule for f in diagnose_text(log("/models/Qwen2.5-7B"), _CATALOG).findings]


def _importing(user_file: str, raised_in: str, func: str, last: str) -> str:
    """verl importing a user's file by path: the import machinery's frames, the file's module code,
    then the code it called, which raised."""
    p = "(TaskRunner pid=3012) "
    return "".join(
        p + ln + "\n"
        for ln in (
            "Traceback (most recent call last):",
            '  File "/opt/verl/verl/tools/function_tool.py", line 170, in load_function_tools_from_path',
            "    spec.loader.exec_module(module)",
            '  File "<frozen importlib._bootstrap_external>", line 883, in exec_module',
            '  File "<frozen importlib._bootstrap>", line 241, in _call_with_frames_removed',
            f'  File "{user_file}", line 23, in <module>',
            "    @function_tool",
            f'  File "{raised_in}", line 201, in {func}',
            "    raise ValueError(",
            last,
        )
    )


def test_an_error_raised_while_a_users_file_is_imported_is_that_custom_file() -> None:
    log = _importing(
        "/home/user/exp/search_tools.py",
        "/opt/verl/verl/tools/function_tool.py",
        "_build_schema_from_fn",
        "ValueError: @function_tool 'web_search' declares variadic parameter(s) ['kwargs'], which can't "
        "be expressed in an OpenAI tool schema. Replace them with explicit named parameters.",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG008", "medium")
    assert "/home/user/exp/search_tools.py" in first.cause
    assert "imported /home/user/exp/search_tools.py" in first.basis


def test_a_library_file_imported_is_not_a_users_custom_file() -> None:
    # verl's own package being imported (`import verl` runs its __init__): no user file in sight.
    log = _importing(
        f"{_SITE}/verl/__init__.py",
        f"{_SITE}/verl/utils/import_utils.py",
        "import_external_libs",
        "ValueError: the plugin list is malformed",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings if f.rule == "CFG008"] == []


def test_a_missing_package_imported_by_a_users_file_is_still_the_missing_package() -> None:
    log = _importing(
        "/home/user/rewards/judge.py",
        "/home/user/rewards/judge.py",
        "<module>",
        "ModuleNotFoundError: No module named 'math_verify'",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "ENV009"


def test_two_of_rays_components_given_one_port_is_a_port_conflict() -> None:
    """Ray refusing its own port plan (a port inside the worker port range, often one it picked at
    random) is a port two users want (DIST002), not some value refused."""
    message = (
        "ValueError: Ray component worker_ports is trying to use a port number 10001 that is used by "
        "other components."
    )
    log = _tb(
        message, f"{_SITE}/ray/_private/parameter.py", "update_pre_selected_port", "raise ValueError(", ""
    )
    [first] = diagnose_text(log, _CATALOG).findings
    assert (first.rule, first.confidence) == ("DIST002", "high")
    assert "worker_ports" in first.cause


@pytest.mark.parametrize(
    ("message", "path", "func", "caller"),
    [
        # Ray sizing what ray_kwargs.ray_init asks for
        (
            "ValueError: After taking into account object store and redis memory usage, the amount of memory "
            "on this node available for tasks and actors (-9.61 GB) is less than -4% of total. You can adjust "
            "these settings with ray.init(memory=<bytes>, object_store_memory=<bytes>).",
            f"{_SITE}/ray/_private/resource_spec.py",
            "resolve",
            "",
        ),
    ],
)
def test_settings_refused_for_what_the_machine_has(message: str, path: str, func: str, caller: str) -> None:
    first = diagnose_text(_tb(message, path, func, "raise ValueError(", caller), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")


def test_host_cache_larger_than_free_ram_is_host_memory() -> None:
    """SGLang's hierarchical KV cache asking for more host RAM than is free: the node's RAM, with the
    sizes the message gives and the cache's own flags as the fix."""
    message = (
        "ValueError: Not enough host memory available. Requesting 220.00 GB but only have 22.69 GB free. "
        "Please reduce the size of the hierarchical cache."
    )
    log = _tb(
        message,
        f"{_SITE}/sglang/srt/mem_cache/pool_host/base.py",
        "_allocate_host_buffer",
        "raise ValueError(",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("DIST005", "high")
    assert "220.00 GB asked, 22.69 GB free" in first.cause
    assert any("--hicache-size" in c for fix in first.fixes for c in fix.commands)


@pytest.mark.parametrize(
    ("message", "path", "code"),
    [
        # an option in code's spelling with its value refused, model words beside it
        (
            "ValueError: AITER fused QK-norm requires kv_cache_dtype 'auto', 'fp8', or 'fp8_e4m3', got 'fp8_e5m2'",
            f"{_SITE}/vllm/_aiter_ops.py",
            "CFG014",
        ),
        # an option the message says must be switched on
        (
            "AssertionError: overlap_moe_expert_parallel_comm must be enabled to return the schedule plan",
            "/opt/verl/verl/workers/actor/megatron_actor.py",
            "CFG014",
        ),
        # the roles of a sample's chat messages: the data
        (
            "AssertionError: the first role must be user",
            "/opt/verl/verl/utils/dataset/vision_utils.py",
            "CFG012",
        ),
        ("ValueError: Unknown role: human", "/opt/verl/verl/workers/rollout/schemas.py", "CFG012"),
        (
            "ValueError: DeepSeek-V4 encoding got an unsupported role: tool",
            "/opt/verl/verl/utils/tokenizer/deepseek.py",
            "CFG012",
        ),
        # verl saying what it does not support, the model's layout included
        (
            "AssertionError: only RMSNorm is supported for now",
            "/opt/verl/verl/models/mcore/model_initializer.py",
            "CFG014",
        ),
        (
            "AssertionError: only LayerNorm is supported for now",
            "/opt/verl/verl/models/mcore/config_converter.py",
            "CFG014",
        ),
        # an environment variable refused, wherever it is read
        (
            "ValueError: Valid value for RAY_USAGE_STATS_ENABLED env var is 0 or 1, but got yes",
            f"{_SITE}/ray/_common/usage/usage_lib.py",
            "CFG014",
        ),
        # an option the message says to lower
        (
            "AssertionError: sub-pool 'full': 3000000000 physical ids exceed the int32 bound (2^31) that "
            "read-index buffers assume. Reduce max_total_num_tokens.",
            f"{_SITE}/sglang/srt/mem_cache/unified_memory_pool.py",
            "CFG014",
        ),
        # a model family's code in vLLM's newer layout refusing what config.json holds: the
        # engine cannot build the model
        (
            "ValueError: embed_dim must be divisible by num_heads (got `embed_dim`: 1000 and `num_heads`: 16).",
            f"{_SITE}/vllm/models/dots3_note/nvidia/audio_encoder.py",
            "FLOW010",
        ),
        # ... unless it asks for an option's value
        (
            "ValueError: dp_shared_memory requires cpu_offload=True",
            f"{_SITE}/vllm/models/deepseek_v41/common/engram.py",
            "CFG014",
        ),
        # two options left unset together
        (
            "AssertionError: local_path and hdfs_path cannot be both None",
            "/opt/verl/verl/utils/checkpoint/checkpoint_manager.py",
            "CFG011",
        ),
        # two options held to an order
        (
            "AssertionError: max_resp_len must be larger than overlong_buffer.len",
            "/opt/verl/verl/experimental/reward_loop/reward_manager/dapo.py",
            "CFG014",
        ),
        # a pipeline split that leaves a stage too few layers
        (
            "AssertionError: Not enough layers in the first virtual pipeline stage",
            "/opt/verl/verl/utils/megatron/router_replay_utils.py",
            "CFG010",
        ),
        # the version a package needs, in backticks
        (
            "ImportError: gptqmodel requires optimum version `1.24.0` or higher. Found version `1.20.0`, but "
            "only versions above `1.24.0` are supported",
            f"{_SITE}/peft/import_utils.py",
            "ENV013",
        ),
        # two choices that cannot go together
        (
            "ValueError: moe_backend='deepep' dispatches and combines itself and cannot be paired with "
            "all2all_backend='pplx'; leave --all2all-backend unset.",
            f"{_SITE}/vllm/config/kernel.py",
            "CFG014",
        ),
    ],
)
def test_refusals_read_from_their_words(message: str, path: str, code: str) -> None:
    first = diagnose_text(_tb(message, path, "check"), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == (code, "medium")


def test_a_model_class_name_is_not_an_option() -> None:
    # `Qwen2_5_VL...` is spelt with underscores, but it names what the model is, not a setting.
    message = (
        "ValueError: Unsupported critic architecture: Qwen2_5_VLForConditionalGeneration. Critic worker expects "
        "an architecture suitable for value function estimation, such as '...ForTokenClassification'."
    )
    report = diagnose_text(_tb(message, "/opt/verl/verl/workers/roles/critic.py", "_build_engine"), _CATALOG)
    assert not report.findings


def test_worker_roles_are_not_a_samples_roles() -> None:
    message = (
        "ValueError: Invalid role critic_x, should be one of ['actor', 'rollout', 'ref', 'actor_rollout']"
    )
    report = diagnose_text(_tb(message, "/opt/verl/verl/workers/fsdp_workers.py", "__init__"), _CATALOG)
    assert "CFG012" not in [f.rule for f in report.findings]


def test_an_override_given_no_value_is_the_missing_value_of_a_run_that_failed_unexplained() -> None:
    # `actor_rollout_ref.model.path=$MODEL_PATH` with the variable never set
    failed = (
        "Error executing job with overrides: ['data.train_batch_size=8', 'actor_rollout_ref.model.path=', "
        "'trainer.n_gpus_per_node=1']\n"
        "Error in call to target 'verl.workers.config.model.HFModelConfig':\n"
        "IndexError('string index out of range')\n"
        "full_key: actor_rollout_ref.model\n"
    )
    first = diagnose_text(failed, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG011", "medium")
    assert "actor_rollout_ref.model.path" in first.cause
    # every override given a value: nothing is claimed from them
    given = failed.replace("model.path=", "model.path=/models/Qwen2.5-0.5B")
    assert "CFG011" not in [f.rule for f in diagnose_text(given, _CATALOG).findings]


def test_a_pin_listed_in_a_message_is_not_a_version_asked_for() -> None:
    # Ray's runtime_env check lists the pip field it was given: a setting refused, no version needed.
    message = (
        "ValueError: The 'pip' field, 'uv' field, and 'conda' field of runtime_env cannot be specified at "
        "the same time.\nspecified pip field: ['math-verify==0.7.0', 'latex2sympy2_extended']"
    )
    first = diagnose_text(
        _tb(message, f"{_SITE}/ray/runtime_env/runtime_env.py", "__init__"), _CATALOG
    ).findings[0]
    assert first.rule == "CFG014"
    asked = "ImportError: math-verify==0.7.0 is required for the math reward, please install it"
    found = diagnose_text(_tb(asked, "/opt/verl/verl/utils/reward_score/math_verify.py"), _CATALOG).findings
    assert found[0].rule == "ENV013"


@pytest.mark.parametrize(
    ("message", "path", "code"),
    [
        # the arguments a dataset is loaded with are settings of the data
        (
            "ValueError: Split name should match '^\\w+(\\.\\w+)*$' but got 'train[:90%'.",
            f"{_SITE}/datasets/splits.py",
            "CFG014",
        ),
        # what the data files hold is not: files that disagree on a field's type are the data's
        (
            "ValueError: The features can't be aligned because the key prompt of features {...} has unexpected "
            "type - Value('string') (expected either List(Value('string')) or Value(\"null\").",
            f"{_SITE}/datasets/features/features.py",
            "CFG012",
        ),
    ],
)
def test_datasets_loading_arguments_are_settings_its_schema_checks_are_not(
    message: str, path: str, code: str | None
) -> None:
    found = diagnose_text(_tb(message, path, "check"), _CATALOG).findings
    assert (found[0].rule if found else None) == code


def _wrapped(text: str, width: int) -> str:
    """`text` as a terminal `width` columns wide prints it: every line cut at that width."""
    return "".join(
        line[i : i + width] + "\n"
        for line in text.rstrip("\n").split("\n")
        for i in range(0, max(len(line), 1), width)
    )


def test_a_frame_cut_inside_its_path_and_a_message_cut_mid_word_are_read_whole() -> None:
    p = "(WorkerDict pid=51872, ip=10.244.5.31) "
    log = _wrapped(
        f"{p}Traceback (most recent call last):\n"
        f'{p}  File "/opt/conda/lib/python3.10/site-packages/verl/experimental/reward_loop/reward_manager/dapo.py", '
        "line 43, in __init__\n"
        f"{p}    assert self.max_resp_len >= self.overlong_buffer_cfg.len, (\n"
        f"{p}AssertionError: max_resp_len must be larger than overlong_buffer.len\n",
        80,
    )
    assert "larg\n" in log  # (the message is cut inside a word, on one line only)
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")


def test_a_frame_whose_path_a_wrap_at_a_space_moved_to_a_line_of_its_own() -> None:
    p = "(WorkerDict pid=2201, ip=10.0.0.3) "
    log = (
        f"{p}Traceback (most recent call last):\n"
        f"{p}  File \n"
        '"/usr/local/lib/python3.10/dist-packages/sglang/srt/server_args.py", line 230, in \n'
        "check_server_args\n"
        f"{p}    assert (\n"
        f"{p}AssertionError: enable_mixed_chunk is not supported with speculative_algorithm=EAGLE\n"
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")


def test_a_function_name_cut_twice_by_a_wrap_is_read_whole() -> None:
    # `in __post` / `_init` / `__`: the name verl's config classes check their settings in
    p = "(TaskRunner pid=3012) "
    log = (
        f'{p}  File "/usr/local/lib/python3.10/dist-packages/verl/workers/config/rollout.py", line 212, in __post\n'
        "_init\n"
        "__\n"
        f"{p}    raise ValueError(\n"
        f"{p}ValueError: only_use_this_value must be one of ['a', 'b'], got 'c'\n"
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")
    assert "__post_init__" in (first.phase_detail or "")


def test_an_engines_settings_code_beside_its_model_family_configs_is_about_the_run() -> None:
    """The engine's settings code, in the folder of its config classes for one model family (which
    read what the model's config.json holds, see below), checks the run's settings."""
    log = _tb(
        "ValueError: Invalid value for `dtype`: float8. Choose from ['auto', 'bfloat16', 'float16']",
        f"{_SITE}/sglang/srt/configs/model_config.py",
        "__init__",
        "raise ValueError(msg)",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings][:1] == ["CFG014"]


def test_a_config_section_said_missing_is_a_missing_value() -> None:
    log = _tb(
        "ValueError: [FullyAsyncRollouter] Missing async_training configuration",
        "/opt/verl/verl/experimental/fully_async_policy/fully_async_rollouter.py",
        "__init__",
        "raise ValueError(msg)",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["CFG011"]


@pytest.mark.parametrize(
    ("message", "code"),
    [
        # an option held to a number
        ("AssertionError: n_samples should always >= 1", "CFG014"),
        # the option named as such, with the value it refused
        ("ValueError: Invalid numeric threshold '0.5x' for option 'rollout_rs'.", "CFG014"),
        # a setting verl keeps for itself
        ("ValueError: Cannot override protected system env: RAY_ADDRESS", "CFG014"),
        # the refusal as some messages write it
        ("AssertionError: Llama Model not supports sharing embedding and output weights", "CFG014"),
        # what an option's value must hold, for one of its entries: a value refused, not left out
        (
            "ValueError: rollout_rs_threshold for option 'seq' must specify both lower and upper bounds.",
            "CFG014",
        ),
    ],
)
def test_verl_refusals_in_more_words(message: str, code: str) -> None:
    first = diagnose_text(_tb(message, "/opt/verl/verl/workers/fsdp_workers.py", "_create_worker"), _CATALOG)
    assert first.findings and first.findings[0].rule == code


@pytest.mark.parametrize(
    ("message", "code"),
    [
        # a feature refused beside a model split, another setting named: that setting's value
        ("ValueError: Engram embedding_across_dp is not supported with elastic EP yet.", "CFG014"),
        (
            "ValueError: --enable-watermark is not supported with pipeline-parallel speculative decoding",
            "CFG014",
        ),
        # the split alone refused, or another split asked for: the parallel layout
        ("ValueError: Prequant BitsAndBytes models with TP is not supported.Please try with PP.", "CFG010"),
    ],
)
def test_a_feature_refused_beside_a_model_split(message: str, code: str) -> None:
    log = _tb(message, f"{_SITE}/sglang/srt/server_args.py", "check_server_args")
    assert diagnose_text(log, _CATALOG).findings[0].rule == code


def test_a_shell_copy_out_of_space_is_not_a_checkpoint_save() -> None:
    log = (
        'rsync: [receiver] write failed on "/models/rm-8b/.model-00003-of-00004.safetensors.Xa81qC": '
        "No space left on device (28)\n"
        "rsync error: error in file IO (code 11) at receiver.c(380) [receiver=3.2.7]\n"
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == []
    saved = "OSError: [Errno 28] No space left on device: 'ckpt/global_step_100/actor/model_world_size_8_rank_0.pt'"
    assert diagnose_text(_tb(saved), _CATALOG).findings[0].rule == "FLOW012"


def _dispatch_tb(caller_code: str) -> str:
    return (
        "Error executing job with overrides: ['algorithm.use_kl_in_reward=True', "
        "'algorithm.kl_ctrl.type=Adaptive']\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/trainer/ppo/ray_trainer.py", line 318, in __init__\n'
        f"    {caller_code}\n"
        '  File "/opt/verl/verl/trainer/ppo/core_algos.py", line 212, in get_kl_controller\n'
        "    raise NotImplementedError\n"
        "NotImplementedError\n"
    )


def test_a_bare_not_implemented_error_ending_a_dispatch_on_a_config_value_is_that_value() -> None:
    """Older verl ends its dispatch on a config value (the KL controller, the advantage
    estimator) with a bare `raise NotImplementedError`: the part of the config its caller passed,
    and the run's overrides under it, are the value refused."""
    log = _dispatch_tb("self.kl_ctrl_in_reward = core_algos.get_kl_controller(self.config.algorithm.kl_ctrl)")
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")
    assert "algorithm.kl_ctrl.type" in first.basis
    # A caller that passes no part of the config: an unfinished method, not a value refused.
    report = diagnose_text(
        _dispatch_tb("self.kl_ctrl_in_reward = core_algos.get_kl_controller(ctrl)"), _CATALOG
    )
    assert [f.rule for f in report.findings] == [] and report.unrecognized


def test_a_dataclass_default_refused_by_a_newer_python_is_the_packages_release() -> None:
    found = classify(
        "mutable default <class 'hydra.conf.JobConf.JobConfig.OverrideDirname'> for field override_dirname "
        "is not allowed: use default_factory",
        "ValueError",
    )
    assert found is not None and (found.code, found.groups["pkg"]) == ("ENV013", "hydra-core")
    # a `list` default, or a class of the user's own script, is their code, not a release
    assert classify("mutable default <class 'list'> for field x is not allowed", "ValueError") is None
    assert (
        classify("mutable default <class 'train.RunArgs'> for field x is not allowed", "ValueError") is None
    )


def test_a_call_that_fits_no_signature_of_the_users_reward_function_is_that_function() -> None:
    # verl's reward code calling the contract's compute_score
    text = _tb(
        "TypeError: compute_score() takes 2 positional arguments but 3 were given",
        "/opt/verl/verl/trainer/ppo/reward.py",
        "_call_with_kwargs",
        "return raw_fn(*args, **merged_kwargs)",
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG008", "medium")
    assert "compute_score() does not take the arguments verl calls it with" in first.cause
    # the function a run named in its overrides, called from any frame
    named = (
        "Error executing job with overrides: ['custom_reward_function.path=/home/u/r.py', "
        "'custom_reward_function.name=math_score']\n"
    ) + _tb(
        "TypeError: math_score() got an unexpected keyword argument 'extra_info'",
        "/opt/verl/verl/workers/reward_manager/naive.py",
        "__call__",
        "score = self.compute_score(",
    )
    first = diagnose_text(named, _CATALOG).findings[0]
    assert first.rule == "CFG008" and "math_score() does not take" in first.cause
    # the user's own code calling a function named like the contract's: not verl calling it
    own = _tb(
        "TypeError: compute_score() missing 1 required positional argument: 'ground_truth'",
        "/home/u/check_reward.py",
        "main",
        "print(compute_score(s))",
    )
    assert not any(f.rule == "CFG008" for f in diagnose_text(own, _CATALOG).findings)


def test_a_custom_dataset_class_verl_cannot_build_is_that_class() -> None:
    text = (
        "Error executing job with overrides: ['data.custom_cls.path=/home/u/lib/ds.py', "
        "'data.custom_cls.name=MathDataset']\n"
    ) + _tb(
        "TypeError: MathDataset.__init__() got an unexpected keyword argument 'data_files'",
        "/opt/verl/verl/trainer/main_ppo.py",
        "create_rl_dataset",
        "dataset = dataset_cls(",
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG008", "medium")
    assert "MathDataset(data_files=..., tokenizer=..., processor=..., config=...)" in first.cause
    assert any("RLHFDataset" in step.step for step in first.fixes)


def _import_chain(module: str) -> str:
    """A user's reward file, loaded by path, failing on its first import (no worker prefix, as
    a driver prints a Ray task's traceback)."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/trainer/ppo/reward.py", line 66, in get_custom_reward_fn\n'
        "    spec.loader.exec_module(module)\n"
        '  File "<frozen importlib._bootstrap_external>", line 940, in exec_module\n'
        '  File "<frozen importlib._bootstrap>", line 241, in _call_with_frames_removed\n'
        '  File "/home/u/rewards/strict.py", line 2, in <module>\n'
        f"    from {module} import extract\n"
        f"ModuleNotFoundError: No module named '{module}'\n"
        "\nThe above exception was the direct cause of the following exception:\n\n"
        f"RuntimeError: Error loading module from '/home/u/rewards/strict.py': No module named '{module}'\n"
    )


def test_a_module_no_package_provides_imported_by_the_users_file_is_that_file() -> None:
    first = diagnose_text(_import_chain("reward_helpers"), _CATALOG).findings[0]
    assert first.rule == "CFG008"
    assert "imports reward_helpers, which no known package provides" in first.cause
    assert any("PYTHONPATH" in c for step in first.fixes for c in step.commands)
    # a package pip installs, imported by the same file, is that missing package
    first = diagnose_text(_import_chain("cachetools"), _CATALOG).findings[0]
    assert first.rule == "ENV009"


def test_a_module_imported_by_a_file_loaded_by_name_is_still_a_missing_package() -> None:
    # importlib.import_module of a user package on sys.path: what it imports may be any package
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.10/importlib/__init__.py", line 126, in import_module\n'
        "    return _bootstrap._gcd_import(name[level:], package, level)\n"
        '  File "<frozen importlib._bootstrap_external>", line 940, in exec_module\n'
        '  File "<frozen importlib._bootstrap>", line 241, in _call_with_frames_removed\n'
        '  File "/home/u/proj/myrewards/judge.py", line 3, in <module>\n'
        "    import judge_client\n"
        "ModuleNotFoundError: No module named 'judge_client'\n"
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert first.rule == "ENV009"


def test_an_error_in_a_file_verl_loads_is_that_file_but_not_one_the_users_own_code_imports() -> None:
    """A user's module failing as it is imported: CFG008 when verl's loader imports it (a custom
    reward or external lib), the user's own code when the user's script does."""
    body = (
        '  File "<frozen importlib._bootstrap_external>", line 995, in exec_module\n'
        '  File "<frozen importlib._bootstrap>", line 488, in _call_with_frames_removed\n'
        '  File "/workspace/recipe/ops/topk.py", line 12, in <module>\n'
        "    _ext = load_inline(name='topk', cpp_sources=SRC)\n"
        "RuntimeError: Compile PreCompile Header fail, command: g++ -x c++-header torch/extension.h\n"
    )
    by_verl = (
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/utils/import_utils.py", line 71, in import_external_libs\n'
        "    importlib.import_module(external_lib)\n" + body
    )
    assert [f.rule for f in diagnose_text(by_verl, _CATALOG).findings] == ["CFG008"]
    by_user = (
        "Traceback (most recent call last):\n"
        '  File "/workspace/train.py", line 5, in <module>\n'
        "    from recipe.ops import topk\n" + body
    )
    report = diagnose_text(by_user, _CATALOG)
    assert not report.findings and report.unrecognized


def test_a_keyword_argument_a_call_refuses_that_the_run_set_is_that_setting() -> None:
    refused = _tb(
        "TypeError: NaiveRewardManager.__init__() got an unexpected keyword argument 'max_resp_len'",
        "/opt/verl/verl/trainer/ppo/reward.py",
        "load_reward_manager",
        "return reward_manager_cls(",
    )
    text = (
        "Error executing job with overrides: ['reward_model.reward_manager=naive', "
        "'+reward_model.reward_kwargs.max_resp_len=64']\n"
    ) + refused
    first = diagnose_text(text, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")
    assert "reward_model.reward_kwargs.max_resp_len" in first.cause
    # the same refusal of a keyword the run did not set is code written for another verl
    assert diagnose_text(refused, _CATALOG).findings[0].rule == "ENV005"
    # a section the run set key by key is handed on whole, as one keyword
    section = _tb(
        "TypeError: NaiveRewardManager.__init__() got an unexpected keyword argument 'overlong_buffer_cfg'",
        "/opt/verl/verl/trainer/ppo/reward.py",
        "load_reward_manager",
        "return reward_manager_cls(",
    )
    text = (
        "Error executing job with overrides: ['+reward_model.reward_kwargs.overlong_buffer_cfg.enable=True', "
        "'+reward_model.reward_kwargs.overlong_buffer_cfg.len=32']\n"
    ) + section
    assert diagnose_text(text, _CATALOG).findings[0].rule == "CFG014"


def test_a_key_missing_under_a_section_the_run_deleted_is_that_deletion() -> None:
    text = (
        "Error executing job with overrides: ['algorithm.adv_estimator=grpo', '~critic']\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/trainer/ppo/utils.py", line 98, in need_critic\n'
        "    if config.critic.enable is not None:\n"
        "omegaconf.errors.ConfigAttributeError: Key 'enable' is not in struct\n"
        "    full_key: critic.enable\n"
        "    object_type=dict\n"
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert first.rule == "CFG011" and "the override ~critic" in first.cause
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings] == ["CFG011"]
    # a key missing elsewhere is still a key that does not exist
    other = text.replace("critic.enable", "trainer.nnode").replace("'enable'", "'nnode'")
    assert diagnose_text(other, _CATALOG).findings[0].rule == "CFG005"


def _overrides(*items: str) -> str:
    return "Error executing job with overrides: [" + ", ".join(f"'{i}'" for i in items) + "]\n"


def test_a_file_path_given_where_a_module_name_belongs_is_that_setting() -> None:
    text = _overrides("actor_rollout_ref.model.external_lib=/home/u/lib/liger_patch.py") + _tb(
        "ModuleNotFoundError: No module named '/home/u/lib/liger_patch'",
        "/opt/verl/verl/utils/import_utils.py",
        "import_external_libs",
        "importlib.import_module(external_lib)",
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG008", "medium")
    assert "a module name has no folders and no .py" in first.cause
    # Hydra's wrapper repeating it (`Error in call to target ...`) is no other unrecognized error
    wrapped = text + (
        "hydra.errors.InstantiationException: Error in call to target 'verl.workers.config.model.HFModelConfig':\n"
        "ModuleNotFoundError(\"No module named '/home/u/lib/liger_patch'\")\n"
    )
    assert not diagnose_text(wrapped, _CATALOG).unrecognized
    commands = [c for step in first.fixes for c in step.commands]
    assert commands == [
        "export PYTHONPATH=/home/u/lib:$PYTHONPATH",
        "actor_rollout_ref.model.external_lib=liger_patch",
    ]


def test_the_module_of_a_class_the_run_names_is_that_setting_not_a_missing_package() -> None:
    chain = _tb(
        "ModuleNotFoundError: No module named 'ckpt_callbacks'",
        "/usr/lib/python3.11/importlib/__init__.py",
        "import_module",
        "return _bootstrap._gcd_import(name[level:], package, level)",
    )
    named = _overrides("trainer.checkpoint_callback_class=ckpt_callbacks.CopyToShare") + chain
    first = diagnose_text(named, _CATALOG).findings[0]
    assert first.rule == "CFG008"
    assert "ckpt_callbacks, which trainer.checkpoint_callback_class names" in first.cause
    # the same module, named by no setting, is a package to install
    assert diagnose_text(chain, _CATALOG).findings[0].rule == "ENV009"


@pytest.mark.parametrize(
    ("key", "value", "message", "code"),
    [
        # a hub dataset name given as data files: pyarrow looks for a local path
        (
            "data.train_files",
            "HuggingFaceH4/ultrachat_200k",
            "FileNotFoundError: HuggingFaceH4/ultrachat_200k",
            "CFG013",
        ),
        (
            "trainer.resume_from_path",
            "/ckpt/global_step_40",
            "FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/global_step_40'",
            "FLOW014",
        ),
    ],
)
def test_a_path_the_run_set_is_read_by_the_key_that_holds_it(
    key: str, value: str, message: str, code: str
) -> None:
    refusal = _tb(message, f"{_SITE}/somelib/reader.py", "open_path", "raise FileNotFoundError(path)")
    first = diagnose_text(_overrides(f"{key}={value}") + refusal, _CATALOG).findings[0]
    assert first.rule == code and key in first.basis


def test_a_data_file_named_in_a_message_about_its_rows_is_not_a_missing_file() -> None:
    text = _overrides("data.train_files=/d/train.parquet") + _tb(
        "ValueError: /d/train.parquet: column prompt has 3 null values",
        f"{_SITE}/somelib/reader.py",
        "check",
    )
    assert not any(f.rule == "CFG013" for f in diagnose_text(text, _CATALOG).findings)


def test_a_value_a_check_shows_by_name_that_the_run_set_is_that_setting() -> None:
    refusal = _tb(
        "ValueError: batch_size should be a positive integer value, but got batch_size=-1",
        f"{_SITE}/torch/utils/data/sampler.py",
        "__init__",
        "raise ValueError(",
    )
    first = diagnose_text(_overrides("data.val_batch_size=-1") + refusal, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")
    assert "data.val_batch_size" in first.cause
    # read from the exception, not from a message its rule's steps were written for: only the
    # general step, with the setting the message names, and none of the rule's list of options
    assert [step.notes for step in first.fixes] == [("you set data.val_batch_size=-1",)]
    assert "loss_agg_mode" not in first.cause
    # another value of the same name is not the run's setting
    assert not diagnose_text(_overrides("data.val_batch_size=16") + refusal, _CATALOG).findings


def _reward_crash(path: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/trainer/ppo/reward.py", line 38, in _call_with_kwargs\n'
        "    return raw_fn(*args, **merged_kwargs)\n"
        f'  File "{path}", line 15, in compute_score\n'
        "    return 1.0 if int(pred) == int(ground_truth) else 0.0\n"
        "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'\n"
    )


def test_the_users_reward_function_raising_is_that_function() -> None:
    text = _overrides("reward.custom_reward_function.path=rewards/int_reward.py") + _reward_crash(
        "/home/u/rl/rewards/int_reward.py"
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG008", "medium")
    assert "at /home/u/rl/rewards/int_reward.py:15 in compute_score" in first.cause
    assert [step.commands for step in first.fixes] == [
        ("grep -n 'def compute_score' /home/u/rl/rewards/int_reward.py",)
    ]
    # a file the run did not name raising the same is no finding of this kind
    other = _overrides("reward.custom_reward_function.path=rewards/other.py") + _reward_crash(
        "/home/u/rl/rewards/int_reward.py"
    )
    assert not any(f.rule == "CFG008" for f in diagnose_text(other, _CATALOG).findings)
    # nor is a server the function asks (a judge, a reward model) refusing or timing out on it
    for refused in (
        "ConnectionRefusedError: [Errno 111] Connection refused",
        "requests.exceptions.ReadTimeout: HTTPConnectionPool(host='localhost', port=30000): Read timed out.",
    ):
        crash = _reward_crash("/home/u/rl/rewards/int_reward.py").replace(
            "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'",
            refused,
        )
        text = _overrides("reward.custom_reward_function.path=rewards/int_reward.py") + crash
        assert not any(f.rule == "CFG008" for f in diagnose_text(text, _CATALOG).findings), refused


def test_a_file_named_like_an_installed_package_is_that_shadow() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/protocol.py", line 29, in <module>\n'
        "    import ray\n"
        '  File "/home/u/rl/ray.py", line 4, in <module>\n'
        "    ray.init(address='auto')\n"
        "AttributeError: partially initialized module 'ray' has no attribute 'init' "
        "(most likely due to a circular import)\n"
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert first.rule == "ENV003" and "/home/u/rl/ray.py, a file of yours" in first.cause
    assert first.fixes[0].commands[0] == "mv /home/u/rl/ray.py /home/u/rl/my_ray.py"
    # the user's own module importing itself in a circle names no installed package
    own = text.replace("'ray'", "'reward_utils'").replace("/ray.py", "/reward_utils.py")
    assert not any(f.rule == "ENV003" for f in diagnose_text(own, _CATALOG).findings)


@pytest.mark.parametrize("module", ["copy", "datasets"])
def test_a_file_a_librarys_import_ran_in_place_of_its_package_is_that_shadow_whatever_it_raised(
    module: str,
) -> None:
    """`import copy` in verl's protocol.py ran the user's ~/rl/copy.py, which then failed on
    verl's own arguments (a missing 'data.train_files=...' file): the shadow is the error, not
    the file the user's script looked for. Python's own modules and installed packages alike."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.11/site-packages/verl/protocol.py", line 20, in <module>\n'
        f"    import {module}\n"
        f'  File "/home/u/rl/{module}.py", line 6, in <module>\n'
        "    shutil.copytree(sys.argv[1], sys.argv[2], dirs_exist_ok=True)\n"
        '  File "/usr/lib/python3.11/shutil.py", line 559, in copytree\n'
        "    with os.scandir(src) as itr:\n"
        "FileNotFoundError: [Errno 2] No such file or directory: 'data.train_files=/data/gsm8k/train.parquet'\n"
    )
    [first] = diagnose_text(text, _CATALOG).findings
    assert first.rule == "ENV003" and f"/home/u/rl/{module}.py, a file of yours" in first.cause
    # a module of the user's own imported by name is no shadow, and a package's whole folder
    # (a copy installed elsewhere with --target) is another installation, not the user's file
    mine = text.replace(f"import {module}", "import my_copy").replace(f"/{module}.py", "/my_copy.py")
    assert "ENV003" not in [f.rule for f in diagnose_text(mine, _CATALOG).findings]
    folder = text.replace(f"/home/u/rl/{module}.py", f"/opt/extra/{module}/__init__.py")
    assert "ENV003" not in [f.rule for f in diagnose_text(folder, _CATALOG).findings]


def test_a_value_a_check_shows_alone_is_the_setting_or_two_that_hold_it() -> None:
    refusal = _tb(
        "TypeError: expected a sequence of integers or a single integer, got '0.5'",
        "/opt/verl/verl/utils/dataset/rl_dataset.py",
        "_read_files_and_tokenize",
        "indices = rng.choice(total, size=self.max_samples, replace=False)",
    )
    both = _overrides("data.train_max_samples=0.5", "data.val_max_samples=0.5", "data.train_batch_size=8")
    first = diagnose_text(both + refusal, _CATALOG).findings[0]
    assert first.rule == "CFG014" and "data.train_max_samples and data.val_max_samples" in first.basis
    # a value three settings share says nothing of which one was refused (verl's own check remains)
    three = _overrides("data.train_max_samples=0.5", "data.val_max_samples=0.5", "algorithm.gamma=0.5")
    assert all("this run set" not in f.basis for f in diagnose_text(three + refusal, _CATALOG).findings)


def test_a_name_an_optional_import_defines_is_that_package_missing() -> None:
    text = (
        "To use Math-Verify, please install it first by running `pip install math-verify`.\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.10/site-packages/verl/utils/reward_score/math_verify.py", line 24, '
        "in compute_score\n"
        "    verify_func = math_metric(\n"
        "NameError: name 'math_metric' is not defined\n"
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("ENV009", "medium")
    # the same NameError in the user's own script is their typo
    own = text.replace(
        "/opt/conda/lib/python3.10/site-packages/verl/utils/reward_score/math_verify.py", "/home/u/s.py"
    )
    assert all(f.rule != "ENV009" or f.confidence == "low" for f in diagnose_text(own, _CATALOG).findings)


def test_a_name_missing_in_verls_patch_of_a_library_is_that_librarys_release() -> None:
    # megatron-core calling verl's patched router, whose helpers came from a `try` import of
    # megatron.core that this release could not satisfy
    text = (
        "Traceback (most recent call last):\n"
        f'  File "{_SITE}/megatron/core/transformer/moe/router.py", line 427, in forward\n'
        "    scores, routing_map = self.routing(logits)\n"
        f'  File "{_SITE}/verl/utils/megatron/router_replay_patch.py", line 326, in patched_routing\n'
        "    scores = compute_routing_scores_for_aux_loss(logits, self.topk, self.score_function)\n"
        "NameError: name 'compute_routing_scores_for_aux_loss' is not defined\n"
    )
    [first] = diagnose_text(text, _CATALOG).findings
    assert (first.rule, first.confidence) == ("ENV008", "medium")
    assert "patch of megatron" in first.basis


def test_a_key_missing_that_is_the_value_the_run_chose_is_that_settings_value() -> None:
    """The code looks a choice up by the name the run gave (`storage_backend=Mooncake`, then
    OmegaConf's `Missing key Mooncake`): that value names nothing there. A setting that names a
    field of the data is not read so."""
    lookup = _tb(
        "omegaconf.errors.ConfigKeyError: Missing key Mooncake",
        f"{_SITE}/omegaconf/dictconfig.py",
        "_get_node",
        'raise ConfigKeyError(f"Missing key {key!s}")',
    )
    chosen = _overrides("transfer_queue.backend.storage_backend=Mooncake")
    first = diagnose_text(chosen + lookup, _CATALOG).findings[0]
    assert first.rule == "CFG014" and "transfer_queue.backend.storage_backend" in first.basis
    field = _tb("KeyError: 'question'", "/opt/verl/verl/utils/dataset/rl_dataset.py", "__getitem__")
    found = diagnose_text(_overrides("data.prompt_key=question") + field, _CATALOG).findings
    assert all("data.prompt_key" not in f.basis for f in found if f.rule == "CFG014")


def test_names_inside_a_mapping_the_run_set_whole_named_by_a_refusal_are_that_setting() -> None:
    """torch's AdamW refusing `fused` with `foreach`, both given inside the optimizer override
    the run wrote as one mapping: those settings' values; a name the message does not quote or
    spell as an option stays unread."""
    mapping = "actor_rollout_ref.actor.optim.override_optimizer_config={fused:True,foreach:True}"
    refusal = _tb(
        "RuntimeError: `fused` and `foreach` cannot be `True` together.",
        f"{_SITE}/torch/optim/adamw.py",
        "__init__",
        'raise RuntimeError("`fused` and `foreach` cannot be `True` together.")',
    )
    first = diagnose_text(_overrides(mapping) + refusal, _CATALOG).findings[0]
    assert first.rule == "CFG014"
    assert (
        "override_optimizer_config.fused and actor_rollout_ref.actor.optim.override_optimizer_config.foreach"
        in (first.basis)
    )
    other = _overrides("actor_rollout_ref.actor.optim.override_optimizer_config={amsgrad:True}")
    assert not diagnose_text(other + refusal, _CATALOG).findings


def test_a_field_the_users_dataset_looks_up_that_the_rows_lack_is_the_data() -> None:
    text = _overrides("data.custom_cls.path=lib/easy.py", "data.custom_cls.name=EasyDataset") + (
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.10/site-packages/datasets/arrow_dataset.py", line 3515, in apply_function\n'
        "    processed_inputs = function(*fn_args, *additional_args, **fn_kwargs)\n"
        '  File "/home/u/rl/lib/easy.py", line 11, in <lambda>\n'
        "    return row['extra_info']['difficulty'] <= 2\n"
        "KeyError: 'difficulty'\n"
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert first.rule == "CFG012" and "lib/easy.py" in first.basis


def test_an_option_the_run_set_named_in_a_refusal_logged_before_the_overrides_is_that_option() -> None:
    # a per-row error logged during the run; Hydra prints the overrides only when the job fails
    row_error = _tb(
        "ValueError: continue_final_message and add_generation_prompt are not compatible. Use "
        "continue_final_message when you want the model to continue the final message.",
        f"{_SITE}/transformers/tokenization_utils_base.py",
        "apply_chat_template",
        "raise ValueError(",
    )
    text = (
        row_error
        + _overrides("+data.apply_chat_template_kwargs.continue_final_message=True")
        + _tb(
            "ValueError: num_samples should be a positive integer value, but got num_samples=0",
            f"{_SITE}/torch/utils/data/sampler.py",
            "__init__",
        )
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert first.rule == "CFG014" and "data.apply_chat_template_kwargs.continue_final_message" in first.basis
    assert not diagnose_text(text, _CATALOG).unrecognized
    # without that override, the same refusal stays unrecognized behind the empty dataset
    plain = row_error + _tb(
        "ValueError: num_samples should be a positive integer value, but got num_samples=0"
    )
    assert [f.rule for f in diagnose_text(plain, _CATALOG).findings] == ["CFG015"]


def test_an_argument_a_library_removed_that_the_run_set_is_that_setting() -> None:
    removed = _tb(
        "RuntimeError: Cluster-wide storage configuration has been removed. The last Ray version "
        "supporting the `storage` argument is `ray==2.47`.",
        f"{_SITE}/ray/_private/worker.py",
        "init",
        "raise RuntimeError(",
    )
    first = diagnose_text(_overrides("+ray_kwargs.ray_init.storage=/data/ray") + removed, _CATALOG).findings[
        0
    ]
    assert first.rule == "CFG014" and "ray_kwargs.ray_init.storage" in first.cause
    # the same message with nothing the run set is the library's release
    assert diagnose_text(removed, _CATALOG).findings[0].rule == "ENV013"


def test_a_hub_dataset_name_given_as_data_files_says_to_save_it_first() -> None:
    text = _overrides("data.train_files=HuggingFaceH4/ultrachat_200k") + _tb(
        "FileNotFoundError: HuggingFaceH4/ultrachat_200k",
        f"{_SITE}/pyarrow/dataset.py",
        "_ensure_single_source",
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert first.rule == "CFG013" and "Hub dataset's name" in first.cause
    assert any(
        "load_dataset('HuggingFaceH4/ultrachat_200k'" in c for step in first.fixes for c in step.commands
    )
    # a local file that is not there is no hub name
    local = _overrides("data.train_files=/d/train.parquet") + _tb(
        "FileNotFoundError: /d/train.parquet", f"{_SITE}/pyarrow/dataset.py", "_ensure_single_source"
    )
    assert "Hub dataset's name" not in diagnose_text(local, _CATALOG).findings[0].cause


def test_a_setting_given_as_none_that_a_check_then_refuses_is_hydras_null() -> None:
    check = (
        "ValueError: [actor_rollout_ref.actor] You have set both 'actor_rollout_ref.actor.micro_batch_size' AND "
        "'actor_rollout_ref.actor.micro_batch_size_per_gpu'. Please remove 'actor_rollout_ref.actor.micro_batch_size' "
        "because only '*_micro_batch_size_per_gpu' is supported (the former is deprecated).\n"
    )
    text = _overrides("actor_rollout_ref.actor.ppo_micro_batch_size=None", "data.train_batch_size=8") + check
    first = diagnose_text(text, _CATALOG).findings[0]
    assert first.rule == "CFG016" and "text 'None'" in first.cause
    assert any(
        "actor_rollout_ref.actor.ppo_micro_batch_size=null" in c for s in first.fixes for c in s.commands
    )
    # given as null (or set to a number), the check means what it says
    for value in ("null", "4"):
        other = text.replace("ppo_micro_batch_size=None", f"ppo_micro_batch_size={value}")
        assert diagnose_text(other, _CATALOG).findings[0].rule == "CFG014"


def test_an_interpolation_to_a_key_no_verl_config_has_is_the_interpolation_written_wrong() -> None:
    text = (
        "omegaconf.errors.InterpolationKeyError: Interpolation key 'data_dir' not found\n"
        "    full_key: data.train_files\n"
        "    object_type=dict\n"
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert first.rule == "CFG016" and "(data_dir)" in first.cause
    # one of verl's own keys, missing from a config not built on verl's: a section missing
    verl_key = text.replace("'data_dir'", "'data.max_prompt_length'")
    assert diagnose_text(verl_key, _CATALOG).findings[0].rule == "CFG011"
    # nor is the interpolation a path from the wrong root offered a real key that looks like it
    assert not any("${" in c for s in first.fixes for c in s.commands)


def test_an_interpolation_to_a_misspelt_key_of_a_section_names_a_key_that_does_not_exist() -> None:
    """`${trainer.project}` for trainer.project_name: a key of verl's section misspelt (CFG005),
    with the interpolation of the key meant as its fix."""
    text = (
        "omegaconf.errors.InterpolationKeyError: Interpolation key 'trainer.project' not found\n"
        "    full_key: trainer.default_local_dir\n"
        "    object_type=dict\n"
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert first.rule == "CFG005" and "trainer.project," in first.cause
    assert first.fixes[0].commands == ("${trainer.project_name}",)


def test_a_merge_that_fails_writing_its_output_is_the_merge_as_sure_as_the_message() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/model_merger/base_model_merger.py", line 426, in save_hf_model_and_tokenizer\n'
        "    model.save_pretrained(self.config.target_dir, state_dict=state_dict)\n"
        f'  File "{_SITE}/safetensors/torch.py", line 323, in save_file\n'
        "    serialize_file(\n"
        "safetensors._safetensors_rust.SafetensorError: Error while serializing: I/O error: "
        "No space left on device (os error 28)\n"
    )
    findings = diagnose_text(text, _CATALOG).findings
    assert [(f.rule, f.confidence, f.basis) for f in findings] == [("FLOW011", "high", "message")]
    assert "writing its result failed" in findings[0].cause
    # outside the merger, the same message is a checkpoint that could not be saved
    saving = text.replace("model_merger/base_model_merger.py", "utils/checkpoint/fsdp_checkpoint_manager.py")
    assert diagnose_text(saving, _CATALOG).findings[0].rule == "FLOW012"


def test_a_missing_key_named_after_a_value_the_run_chose_beside_it_is_a_missing_section() -> None:
    text = _overrides("actor_rollout_ref.actor.strategy=megatron", "data.train_batch_size=8") + (
        "omegaconf.errors.ConfigAttributeError: Key 'megatron' is not in struct\n"
        "    full_key: actor_rollout_ref.actor.megatron\n"
        "    object_type=dict\n"
    )
    first = diagnose_text(text, _CATALOG).findings[0]
    assert first.rule == "CFG011" and "actor_rollout_ref.actor.strategy=megatron" in first.cause
    assert any("--config-name=ppo_megatron_trainer" in c for s in first.fixes for c in s.commands)
    # a key named after nothing the run chose, and that no verl config has, does not exist
    other = text.replace("'megatron'", "'megatrn'").replace(".megatron\n", ".megatrn\n")
    assert diagnose_text(other, _CATALOG).findings[0].rule == "CFG005"


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("'tokenizers.Encoding' object has no attribute 'tolist'", "ENV013"),
        (
            "'transformers.tokenization_utils_fast.PreTrainedTokenizerFast' object has no attribute 'x'",
            "ENV010",
        ),
        ("'pandas.core.frame.DataFrame' object has no attribute 'append'", "ENV013"),
        # everyday values of user code, an actor's own methods, and classes of no known package
        ("'numpy.ndarray' object has no attribute 'append'", None),
        ("'ray.actor.ActorHandle' object has no attribute 'generate'", None),
        ("'MyReward' object has no attribute 'score'", None),
    ],
)
def test_a_packages_object_lacking_what_the_code_uses_is_that_packages_release(
    message: str, code: str | None
) -> None:
    found = classify(message, "AttributeError")
    assert (found.code if found else None) == code


def test_the_interpreters_own_objects_lacking_an_attribute_in_a_packages_code_is_that_packages_release() -> (
    None
):
    message = "AttributeError: 'code' object has no attribute 'co_endlinetable'"
    first = diagnose_text(_tb(message, f"{_SITE}/dill/_dill.py", "save_code"), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("ENV013", "medium") and "dill" in first.cause
    # raised in the user's own script, it is that script's
    assert not diagnose_text(_tb(message, "/home/me/tools/inspect_code.py", "main"), _CATALOG).findings


def test_a_key_verl_reads_that_the_composed_config_lacks_is_a_missing_section() -> None:
    text = _overrides("data.train_batch_size=8", "data=gsm8k_local") + (
        "omegaconf.errors.ConfigAttributeError: Key 'dataloader_num_workers' is not in struct\n"
        "    full_key: data.dataloader_num_workers\n"
        "    object_type=dict\n"
    )
    assert diagnose_text(text, _CATALOG).findings[0].rule == "CFG011"
    # the run set that key (or one under it) itself: a key this verl does not have
    own = text.replace("'data.train_batch_size=8'", "'data.dataloader_num_workers=4'")
    assert diagnose_text(own, _CATALOG).findings[0].rule == "CFG005"
    # a key no verl config has is misspelt wherever it came from
    typo = text.replace("dataloader_num_workers", "dataloader_num_worker")
    assert diagnose_text(typo, _CATALOG).findings[0].rule == "CFG005"
    # Hydra's list printed empty (a run from its own config file) says the run set nothing
    unset = "Error executing job with overrides: []\n" + text.split("\n", 1)[1]
    assert diagnose_text(unset, _CATALOG).findings[0].rule == "CFG011"


def test_a_name_python_finds_in_another_case_is_the_name_written_wrong_not_a_release() -> None:
    message = (
        "AttributeError: module 'verl.interactions.gsm8k_interaction' has no attribute 'GSM8KInteraction'. "
        "Did you mean: 'Gsm8kInteraction'?"
    )
    first = diagnose_text(_tb(message, "/opt/verl/verl/interactions/utils/interaction_registry.py"), _CATALOG)
    assert first.findings[0].rule == "CFG008"
    # a name the module lacks in any case is a release that lacks it
    other = message.replace("Did you mean: 'Gsm8kInteraction'?", "Did you mean: 'Gsm8kInteractionV2'?")
    assert diagnose_text(_tb(other), _CATALOG).findings[0].rule == "ENV005"


@pytest.mark.parametrize(
    ("message", "path", "func"),
    [
        # a scheduler's step meeting a state of its own: the enum member is no option
        (
            "RuntimeError: Invalid request status: RequestStatus.FINISHED_ABORTED",
            f"{_SITE}/vllm/v1/core/sched/scheduler.py",
            "schedule",
        ),
        # an internal consistency check while a batch is prepared
        (
            "AssertionError: Expected 1536, got 1538",
            f"{_SITE}/sglang/srt/managers/schedule_batch.py",
            "prepare_encoder_info_extend",
        ),
        # a variable printed with its repr (`{recv_req=}`): its fields are no options
        (
            "ValueError: Unrecognized ExpertDistributionReq value: "
            "recv_req=ExpertDistributionReq(action=<ExpertDistributionReqType.STOP_RECORD: 2>)",
            f"{_SITE}/sglang/srt/managers/scheduler.py",
            "expert_distribution_handle",
        ),
        # the library saying it found its own bug
        (
            "ValueError: max_cache_len is None but it should have been passed. Something went wrong, "
            "please open an issue on GitHub with a reproducer: https://github.com/huggingface/peft/issues",
            f"{_SITE}/peft/peft_model.py",
            "get_prompt",
        ),
        # a native call's return code checked by a function named in capitals
        (
            "RuntimeError: CUDART error: invalid argument",
            f"{_SITE}/vllm/distributed/device_communicators/cuda_wrapper.py",
            "CUDART_CHECK",
        ),
        # an object of the wrong class passed by the calling code
        (
            "ValueError: model must be a PeftModel",
            f"{_SITE}/peft/tuners/lora/eva.py",
            "initialize_lora_eva_weights",
        ),
    ],
)
def test_a_library_refusing_its_own_state_is_no_setting(message: str, path: str, func: str) -> None:
    report = diagnose_text(_tb(message, path, func, "raise ValueError("), _CATALOG)
    assert [f.rule for f in report.findings if f.rule.startswith("CFG")] == []


@pytest.mark.parametrize(
    ("message", "path", "func", "caller"),
    [
        # a name a setting gives, refused while the library loads it
        (
            "RuntimeError: Completion template qwen2.5-coder is not a built-in template name or a valid "
            "completion template file path.",
            f"{_SITE}/sglang/srt/managers/template_manager.py",
            "load_completion_template",
            "initialize_templates",
        ),
        # a feature refused beside another while an adapter is set up
        (
            "ValueError: Prefix tuning does not work with gradient checkpointing.",
            f"{_SITE}/peft/peft_model.py",
            "_setup_prompt_encoder",
            "add_adapter",
        ),
        # a feature refused unless another setting is given, in the engine's config check
        (
            "ValueError: Unable to use nsight profiling unless workers run with Ray.",
            f"{_SITE}/vllm/config.py",
            "_verify_args",
            "__post_init__",
        ),
        # a parameter's value refused in a function the constructor calls
        (
            "ValueError: `r` should be a positive integer value but the value passed is 0",
            f"{_SITE}/peft/tuners/lora/layer.py",
            "update_layer",
            "__init__",
        ),
    ],
)
def test_a_library_refusing_a_value_while_it_starts_is_a_setting(
    message: str, path: str, func: str, caller: str
) -> None:
    first = diagnose_text(_tb(message, path, func, "raise ValueError(", caller), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")


@pytest.mark.parametrize(
    ("message", "code"),
    [
        (
            "RuntimeError: Setting `recursive=True` to `unwrap_model` requires `accelerate` v0.29.0. "
            "Please upgrade your version of accelerate",
            "ENV013",
        ),
        (
            "ImportError: Saving a model with tensor parallelism requires `huggingface_hub` version 0.31.4 or higher.",
            "ENV013",
        ),
        (
            "datasets.exceptions.DatasetNotFoundError: Revision 'v1.0' doesn't exist for dataset "
            "'openai/gsm8k' on the Hub.",
            "CFG013",
        ),
        (
            "huggingface_hub.errors.NotASafetensorsRepoError: 'Qwen/Qwen2.5-7B' is not a safetensors repo. "
            "Couldn't find 'model.safetensors.index.json' or 'model.safetensors' files.",
            "CFG017",
        ),
    ],
)
def test_what_an_exception_says_by_its_class_or_its_pin(message: str, code: str) -> None:
    first = diagnose_text(_tb(message, f"{_SITE}/somewhere/module.py", "load"), _CATALOG).findings[0]
    assert (first.rule, first.confidence) == (code, "medium")


@pytest.mark.parametrize(
    ("kwarg", "code"),
    [
        ("max_samples", "ENV005"),  # verl's RLHFDataset gained it in 0.7: the class follows an older verl
        ("data_files", "CFG008"),  # taken by every release's RLHFDataset: the class is simply another shape
    ],
)
def test_a_custom_dataset_class_written_for_an_older_verl(kwarg: str, code: str) -> None:
    log = (
        "Error executing job with overrides: ['data.custom_cls.path=/home/u/my_dataset.py', "
        "'data.custom_cls.name=HintDataset']\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/trainer/ppo/utils.py", line 129, in create_rl_dataset\n'
        "    dataset = dataset_cls(\n"
        f"TypeError: HintDataset.__init__() got an unexpected keyword argument '{kwarg}'\n"
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == (code, "medium")
    if code == "ENV005":
        assert "HintDataset" in first.cause and "0.7" in first.cause


def test_a_target_the_run_misspelt_is_a_typo_not_another_release() -> None:
    log = (
        "Error executing job with overrides: ['actor_rollout_ref.actor._target_="
        "verl.workers.config.FSDPActorConfg']\n"
        "Error locating target 'verl.workers.config.FSDPActorConfg', set env var HYDRA_FULL_ERROR=1 "
        "to see chained exception.\nfull_key: actor_rollout_ref.actor\n"
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert first.rule == "CFG014" and "FSDPActorConfig" in first.cause
    assert "actor_rollout_ref.actor._target_=verl.workers.config.FSDPActorConfig" in [
        c for step in first.fixes for c in step.commands
    ]
    # a class of another release (not one letter from a name verl has) stays a version mismatch
    other = log.replace("FSDPActorConfg", "FSDPEngineConfigV2")
    assert diagnose_text(other, _CATALOG).findings[0].rule == "ENV005"


def test_a_hydra_build_key_the_run_set_is_the_value_refused() -> None:
    log = (
        "Error executing job with overrides: ['actor_rollout_ref.actor.optim._target_=torch.optim.AdamW']\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/site-packages/hydra/_internal/instantiate/_instantiate2.py", line 92, '
        "in _call_target\n"
        "    return _target_(*args, **kwargs)\n"
        "TypeError: AdamW.__init__() got an unexpected keyword argument 'optimizer'\n"
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")
    assert "actor_rollout_ref.actor.optim._target_" in first.cause
    # without that override the same error is not put on a setting
    other = log.replace("actor_rollout_ref.actor.optim._target_=torch.optim.AdamW", "trainer.nnodes=1")
    assert "CFG014" not in [f.rule for f in diagnose_text(other, _CATALOG).findings]


# What Python prints between a chained exception's cause and the exception it led to.
_CAUSED = "\nThe above exception was the direct cause of the following exception:\n\n"


def _frames(*frames: tuple[str, str, str], last: str, prefix: str = "") -> str:
    """A traceback of the given (path, function, source line) frames, outermost first."""
    lines = [f"{prefix}Traceback (most recent call last):"]
    for n, (path, func, code) in enumerate(frames):
        lines += [f'{prefix}  File "{path}", line {40 + n}, in {func}', f"{prefix}    {code}"]
    return "\n".join([*lines, f"{prefix}{last}"]) + "\n"


_SITE = "/usr/local/lib/python3.11/site-packages"


def test_verls_worker_plumbing_refusing_a_split_of_the_gpus_is_the_parallel_layout() -> None:
    """verl's single-controller code checks its own bookkeeping (`execute_fn must be callable`)
    and says nothing of a setting; a split of the GPUs it was given that does not divide them
    (the rollout's world size over the reward pool) is the parallel layout the run set."""
    splitting = (
        ("/opt/verl/verl/experimental/reward_loop/reward_model.py", "__init__", "split_resource_pool("),
        (
            "/opt/verl/verl/single_controller/ray/base.py",
            "split_resource_pool",
            'assert resource_pool.world_size % split_size == 0, "split_size must be a divisor of world_size"',
        ),
    )
    last = "AssertionError: split_size must be a divisor of world_size"
    assert [f.rule for f in diagnose_text(_frames(*splitting, last=last), _CATALOG).findings] == ["CFG010"]
    own = "AssertionError: execute_fn must be callable"
    assert [f.rule for f in diagnose_text(_frames(*splitting, last=own), _CATALOG).findings] == []


def test_a_bare_assert_spread_over_lines_is_read_from_the_operand_python_printed() -> None:
    """Of an `assert (a % b == 0)` spread over lines Python prints one line: an operand that is a
    batch size is verl's batch arithmetic; one that is another option is a value verl refused."""
    trainer = "/opt/verl/verl/trainer/ppo/ray_trainer.py"
    for operand, code in (
        ("config.actor_rollout_ref.actor.ppo_mini_batch_size", "CFG004"),
        ("config.actor_rollout_ref.actor.clip_ratio_c", "CFG014"),
    ):
        tb = _frames(
            (trainer, "__init__", "self._validate_config()"),
            (trainer, "_validate_config", operand),
            last="AssertionError",
        )
        assert [f.rule for f in diagnose_text(tb, _CATALOG).findings] == [code], operand
    # (a line of the user's own code is no operand of verl's)
    tb = _frames(("/home/me/check.py", "main", "config.data.train_batch_size"), last="AssertionError")
    assert [f.rule for f in diagnose_text(tb, _CATALOG).findings] == []


def test_a_feature_that_needs_one_data_parallel_replica_refuses_its_own_setting() -> None:
    """A rollout feature that runs with one data-parallel replica only refuses the feature's
    setting beside the replicas (CFG014); a model split that does not divide the GPUs is the
    parallel layout (CFG010)."""
    checking = (f"{_SITE}/sglang/srt/server_args.py", "check_server_args", "raise ValueError(msg)")
    for last, code in (
        ("NotImplementedError: data_parallel_size=1 only (got 2)", "CFG014"),
        ("AssertionError: dp_size must be 1 or dp attention must be enabled for update weights", "CFG014"),
        ("ValueError: tp_size (3) must divide the number of GPUs (8)", "CFG010"),
    ):
        log = _frames(checking, last=last, prefix="(WorkerDict pid=7) ")
        assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == [code], last


def test_the_quantization_a_checkpoint_was_exported_with_is_what_the_model_is() -> None:
    """vLLM's quantization methods judging the quantization_config of the model folder (raised in
    their code, or relayed by pydantic's validation of the engine config) refuse the checkpoint,
    not a setting of the run: no config code. A model split they refuse is the split."""
    quant = f"{_SITE}/vllm/model_executor/layers/quantization"
    refusing = (
        (f"{_SITE}/vllm/config.py", "_verify_quantization", "quant_cfg = self._parse_quant_hf_config()"),
        (f"{quant}/awq.py", "__init__", "raise ValueError("),
    )
    last = "ValueError: Currently, only 4-bit weight quantization is supported for AWQ, but got 8 bits."
    assert [f.rule for f in diagnose_text(_frames(*refusing, last=last), _CATALOG).findings] == []
    relayed = _pydantic_refusal(
        [
            "  Value error, Currently, only 2/3/4/8-bit weight quantization is supported for GPTQ, but got 6 "
            "bits. [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]"
        ]
    )
    assert [f.rule for f in diagnose_text(relayed, _CATALOG).findings] == []
    split = (
        (f"{quant}/fp8.py", "create_weights", "validate_fp8_block_shape("),
        (f"{quant}/utils/fp8_utils.py", "validate_fp8_block_shape", "raise ValueError("),
    )
    last = (
        "ValueError: Weight output_partition_size = 2752 is not divisible by weight quantization "
        "block_n = 128. Try a smaller tensor_parallel_size."
    )
    assert [f.rule for f in diagnose_text(_frames(*split, last=last), _CATALOG).findings] == ["CFG010"]


def test_a_name_chosen_inside_a_dict_the_run_set_is_that_setting() -> None:
    """The model's config is the model folder's, unless the run overrides it: a value chosen by
    name inside a dict given whole on the command line (`hf_overrides={rope_scaling: ...}`) and
    named by the refusal is that setting of the run, not the model folder."""
    refusing = (
        (f"{_SITE}/vllm/model_executor/models/qwen2.py", "__init__", "self.rotary_emb = get_rope("),
        (f"{_SITE}/vllm/model_executor/layers/rotary_embedding/__init__.py", "get_rope", "raise ValueError("),
    )
    tb = _frames(*refusing, last="ValueError: Unknown RoPE scaling type dynamic_ntk")
    hf = "+actor_rollout_ref.rollout.engine_kwargs.vllm.hf_overrides={rope_scaling:{rope_type:dynamic_ntk}}"
    assert [f.rule for f in diagnose_text(_overrides(hf) + tb, _CATALOG).findings] == ["CFG014"]
    other = "+actor_rollout_ref.rollout.engine_kwargs.vllm.hf_overrides={max_window_layers:28}"
    assert [f.rule for f in diagnose_text(_overrides(other) + tb, _CATALOG).findings] != ["CFG014"]


def test_what_a_library_refuses_from_a_script_calling_it_while_it_runs_is_that_scripts_doing() -> None:
    refusal = (f"{_SITE}/peft/peft_model.py", "_setup_prompt_encoder", "raise ValueError(msg)")
    called = (
        ("/workspace/scripts/tune.py", "main", "model.add_adapter(name, config)"),
        (f"{_SITE}/peft/peft_model.py", "add_adapter", "self._setup_prompt_encoder(adapter_name)"),
        refusal,
    )
    last = "ValueError: Prefix tuning does not work with gradient checkpointing."
    assert [f.rule for f in diagnose_text(_frames(*called, last=last), _CATALOG).findings] == []
    # a script of the user's building the library itself, with no verl code in the traceback,
    # passes its own values too: no setting of verl's config is what was refused
    built = (
        ("/workspace/scripts/train.py", "main", "model = get_peft_model(model, config)"),
        (f"{_SITE}/peft/mapping_func.py", "get_peft_model", "return PeftModel(model, config)"),
        (f"{_SITE}/peft/peft_model.py", "add_adapter", "self._setup_prompt_encoder(adapter_name)"),
        refusal,
    )
    assert diagnose_text(_frames(*built, last=last), _CATALOG).findings == ()
    # the same refusal raised while verl builds the model is a setting of the run
    by_verl = (
        (
            "/opt/verl/verl/workers/fsdp_workers.py",
            "_build_model_optimizer",
            "module = get_peft_model(module, cfg)",
        ),
        *built[1:],
    )
    assert diagnose_text(_frames(*by_verl, last=last), _CATALOG).findings[0].rule == "CFG014"


def test_what_verl_refuses_from_code_plugged_into_it_is_not_a_setting() -> None:
    log = _frames(
        ("/opt/verl/verl/workers/engine/fsdp/transformer_impl.py", "forward_step", "loss = loss_function("),
        ("/workspace/my_losses/kl_loss.py", "compute", "m = Metric(value=kl, aggregation=None)"),
        (
            "/opt/verl/verl/utils/metric/utils.py",
            "__init__",
            'raise ValueError(f"Unsupported aggregation type")',
        ),
        last="ValueError: Unsupported aggregation type: None",
        prefix="(WorkerDict pid=2345, ip=10.0.0.3) ",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == []


def test_a_packages_console_script_is_not_the_users_code() -> None:
    log = _frames(
        ("/usr/local/bin/torchrun", "<module>", "sys.exit(main())"),
        (f"{_SITE}/torch/distributed/elastic/multiprocessing/errors/__init__.py", "wrapper", "return f(*a)"),
        (f"{_SITE}/torch/distributed/run.py", "config_from_args", "rdzv_configs = _parse_rendezvous_config("),
        (
            f"{_SITE}/torch/distributed/elastic/rendezvous/utils.py",
            "_parse_rendezvous_config",
            "raise ValueError(",
        ),
        last="ValueError: The rendezvous configuration option 'timeout' must have a value specified.",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG011"


def test_a_module_attribute_looked_up_by_a_value_through_the_modules_hook_is_no_release() -> None:
    """`getattr(torch, self.dtype)` with `"dtype": "bf16"` in a config.json: torch's module
    `__getattr__` raises for the name its caller held in a variable, and the wrapper that repeats
    the error (Hydra's) is the same lookup, so no torch release lacks anything."""
    log = _frames(
        (
            f"{_SITE}/transformers/configuration_utils.py",
            "__post_init__",
            "self.dtype = getattr(torch, self.dtype)",
        ),
        (
            f"{_SITE}/torch/__init__.py",
            "__getattr__",
            'raise AttributeError(f"module {__name__!r} has no attribute {name!r}")',
        ),
        last="AttributeError: module 'torch' has no attribute 'bf16'",
    ) + (
        _CAUSED
        + _frames(
            (
                f"{_SITE}/hydra/_internal/instantiate/_instantiate2.py",
                "_call_target",
                "raise InstantiationException(",
            ),
            last="hydra.errors.InstantiationException: Error in call to target 'verl.workers.config.model.HFModelConfig':",
        )
        + "AttributeError(\"module 'torch' has no attribute 'bf16'\")\nfull_key: actor_rollout_ref.model\n"
    )
    assert "ENV013" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]


_LIGER_REFUSES_THE_MODEL = (
    f"{_SITE}/liger_kernel/transformers/monkey_patch.py",
    "apply_liger_kernel_to_qwen2_5_vl",
    "raise TypeError(",
)
_LIGER_REFUSAL = "TypeError: Unsupported Qwen2VL model type. Got: <class 'Qwen2_5_VLForTokenClassification'>"


@pytest.mark.parametrize("set_in_log", [True, False])
def test_code_verl_runs_for_a_setting_refusing_the_model_is_that_setting(set_in_log: bool) -> None:
    """Liger's patch runs only when model.use_liger is on: its refusal of the model verl loaded is
    that setting not fitting the model, named as the run set it when the log shows it."""
    command = "$ python3 -m verl.trainer.main_ppo critic.model.use_liger=True\n" if set_in_log else ""
    log = command + _frames(
        (
            f"{_SITE}/verl/workers/fsdp_workers.py",
            "_build_critic_model_optimizer",
            "_apply_liger_kernel_to_instance(",
        ),
        (
            f"{_SITE}/liger_kernel/transformers/monkey_patch.py",
            "_apply_liger_kernel_to_instance",
            "apply_fn(model)",
        ),
        _LIGER_REFUSES_THE_MODEL,
        last=_LIGER_REFUSAL,
    )
    [finding] = diagnose_text(log, _CATALOG).findings
    assert finding.rule == "CFG014"
    expected = "critic.model.use_liger" if set_in_log else "actor_rollout_ref.model.use_liger"
    assert expected in finding.cause


def test_a_script_calling_code_a_setting_switches_on_is_the_scripts_doing() -> None:
    log = _frames(
        ("/workspace/vlm/train.py", "main", "model = build(args)"),
        (f"{_SITE}/torch/nn/modules/module.py", "_call_impl", "return forward_call(*args, **kwargs)"),
        _LIGER_REFUSES_THE_MODEL,
        last=_LIGER_REFUSAL,
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == []


_OMEGACONF_REFUSES = (
    (f"{_SITE}/omegaconf/omegaconf.py", "merge", "target.merge_with(*configs[1:])"),
    (f"{_SITE}/omegaconf/base.py", "_set_value_impl", "raise ValidationError("),
)
_WRONG_TYPE = (
    "omegaconf.errors.ValidationError: Value 'auto' of type 'str' is incompatible with type hint "
    "'Union[int, float]'\n    full_key: gpu_memory_utilization\n    object_type=RolloutConfig"
)


def test_omegaconf_refusing_a_value_for_verls_typed_config_is_that_setting() -> None:
    log = (
        "$ python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.gpu_memory_utilization=auto\n"
        + _frames(
            (
                f"{_SITE}/verl/utils/config.py",
                "omega_conf_to_dataclass",
                "cfg = OmegaConf.merge(cfg_from_dataclass, config)",
            ),
            *_OMEGACONF_REFUSES,
            last=_WRONG_TYPE,
        )
    )
    [finding] = diagnose_text(log, _CATALOG).findings
    assert finding.rule == "CFG014"
    assert "actor_rollout_ref.rollout.gpu_memory_utilization" in finding.cause
    # a script of the user's merging its own typed config: its own values, no setting of verl's
    script = _frames(
        ("/workspace/tools/sweep.py", "load_cfg", "cfg = OmegaConf.merge(schema, raw)"),
        *_OMEGACONF_REFUSES,
        last=_WRONG_TYPE,
    )
    assert [f.rule for f in diagnose_text(script, _CATALOG).findings] == []


@pytest.mark.parametrize("runpy", ["/usr/lib/python3.12/runpy.py", "/opt/conda/lib/python3.10/runpy.py"])
def test_python_starting_a_librarys_module_is_not_the_users_code(runpy: str) -> None:
    """`python -m sglang.launch_server ...`: runpy runs the library's own module, so the library
    refusing its arguments is a setting, not a user's script calling it wrongly; the engine
    started on its own, with nothing of verl in the log, is no setting of verl's config, but
    started for a verl run (the run's command line before it) it is."""
    log = _frames(
        (runpy, "_run_module_as_main", "return _run_code(code, main_globals, None,"),
        (runpy, "_run_code", "exec(code, run_globals)"),
        (f"{_SITE}/sglang/launch_server.py", "<module>", "launch_server(server_args)"),
        (
            f"{_SITE}/sglang/srt/entrypoints/engine.py",
            "_launch_subprocesses",
            "server_args.check_server_args()",
        ),
        (f"{_SITE}/sglang/srt/server_args.py", "check_server_args", "assert not ("),
        last="AssertionError: multi-node data parallel is not supported unless dp attention!",
    )
    assert not diagnose_text(log, _CATALOG).findings
    command = "$ python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=sglang\n"
    assert [f.rule for f in diagnose_text(command + log, _CATALOG).findings] == ["CFG014"]


@pytest.mark.parametrize(
    ("path", "package"),
    [
        ("/workspace/recipe/my_loss.py", None),  # a user's own folder called recipe
        ("/home/u/verl/recipe/dapo/dapo_ray_trainer.py", "verl"),  # one of verl's recipes
        # a checkout under another name: verl's recipes by their names, a user's recipe is theirs
        ("/code/rl/recipe/one_step_off_policy/main_ppo.py", "verl"),
        ("/workspace/recipe/vl_lora/build.py", None),
    ],
)
def test_only_a_recipe_in_its_own_folder_is_verls(path: str, package: str | None) -> None:
    from verl_doctor.engine.line_kinds import package_of

    assert package_of(path) == package


def test_a_module_verl_imports_by_a_configured_name_is_the_users_module() -> None:
    log = _frames(
        ("/opt/verl/verl/trainer/main_ppo.py", "init_agent_loop_manager", "cls = load_class_from_fqn(fqn)"),
        (
            "/opt/verl/verl/utils/import_utils.py",
            "load_class_from_fqn",
            "module = importlib.import_module(p)",
        ),
        ("<frozen importlib._bootstrap>", "_find_and_load_unlocked", ""),
        last="ModuleNotFoundError: No module named 'my_agent_pkg'",
        prefix="(TaskRunner pid=1111) ",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert first.rule == "CFG008" and "my_agent_pkg" in first.cause
    # a known package missing under the same loader is still a dependency to install
    other = log.replace("my_agent_pkg", "math_verify")
    assert diagnose_text(other, _CATALOG).findings[0].rule == "ENV009"


@pytest.mark.parametrize(
    ("message", "code"),
    [
        # counts the code compared, no option named: its own bookkeeping
        (
            "RuntimeError: router replay produced fewer route tensors than scheduled samples: need 64, got 48",
            None,
        ),
        # the same shape naming an option is a setting
        ("ValueError: ppo_epochs must divide the number of steps, got 3", "CFG014"),
        # an object of a module's class, or a method, passed where a value goes: the calling code's
        ("AssertionError: override_config_kwargs must be a dict, got <class 'torch.Tensor'>", None),
        ("RuntimeError: `url` must be a string. <class 'method'>: <bound method PurePath.as_uri of x>", None),
    ],
)
def test_what_a_refused_value_is_decides_whether_it_is_a_setting(message: str, code: str | None) -> None:
    log = _tb(message, "/opt/verl/verl/workers/engine/megatron/transformer_impl.py", "forward_backward_batch")
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings][:1] == ([code] if code else [])


def test_megatrons_words_for_transformer_engine_name_its_version() -> None:
    log = _tb(
        "AssertionError: Current FusedAdam of TE doesn't support --use-precision-aware-optimizer, "
        "please update TE version.",
        f"{_SITE}/megatron/core/optimizer/optimizer_config.py",
        "__post_init__",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("ENV008", "medium")


def test_a_rollout_engines_model_config_refusing_the_architecture_is_that_engines_release() -> None:
    log = _tb(
        "ValueError: Unsupported architecture: Qwen3ForCausalLM",
        f"{_SITE}/sglang/srt/configs/internvl.py",
        "__init__",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "ENV004"


def test_a_value_refused_while_verl_writes_the_runs_model_overrides_is_that_override() -> None:
    log = _frames(
        ("/opt/verl/verl/utils/model.py", "update_model_config", "setattr(module_config, key, val)"),
        (f"{_SITE}/transformers/configuration_utils.py", "output_attentions", "raise ValueError("),
        last="ValueError: The `output_attentions` attribute is not supported when using the "
        "`attn_implementation` set to flash_attention_2. Please set it to 'eager' instead.",
        prefix="(WorkerDict pid=52310, ip=10.20.3.14) ",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG014"


def test_an_optional_extension_to_install_is_a_missing_dependency() -> None:
    found = classify("Need to install fused_dense", "AssertionError")
    assert found is not None and found.code == "ENV009" and found.groups["module"] == "fused_dense"
    # transformers' load_video for a YouTube URL (its double space kept)
    found = classify("To load a video from YouTube url you have  to install `yt_dlp` first.", "ImportError")
    assert found is not None and found.code == "ENV009" and found.groups["pkg"] == "yt-dlp"
    assert classify("You have to install the latest version.", "ImportError") is None


def test_a_file_the_data_library_cannot_find_is_a_data_path() -> None:
    log = _frames(
        ("/workspace/scripts/prepare.py", "<module>", "ds = load_from_disk(args.local_dir)"),
        (
            f"{_SITE}/datasets/load.py",
            "load_from_disk",
            'raise FileNotFoundError(f"Directory {p} not found")',
        ),
        last="FileNotFoundError: Directory /data/gsm8k_hf not found",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG013"


def test_an_option_that_only_works_with_another_value_is_a_setting() -> None:
    log = _tb(
        "ValueError: moe_expert_capacity_factor only works with aux_loss, seq_aux_loss, global_aux_loss "
        "or none load balancing",
        f"{_SITE}/megatron/core/transformer/transformer_config.py",
        "__post_init__",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG014"


def test_a_class_a_setting_named_that_is_not_of_verls_plugin_base_is_a_value_refused() -> None:
    log = _tb("AssertionError", "/opt/verl/verl/trainer/main_ppo.py", "create_rl_sampler")
    log = log.replace("something()", "assert isinstance(sampler, AbstractSampler)")
    first = diagnose_text(log, _CATALOG).findings[0]
    assert first.rule == "CFG014" and "an AbstractSampler" in first.basis


@pytest.mark.parametrize(
    ("message", "path", "code"),
    [
        # a loader refusing the model folder's weights format: the model folder
        (
            "NotImplementedError: Not implemented for deprecated pytorch_model-*.bin format huggingface "
            "weights, please use safetensors format",
            f"{_SITE}/mbridge/core/safetensor_io.py",
            "CFG017",
        ),
        # the library blaming how a model's code was written: no setting
        (
            "AssertionError: Expected multimodal embeddings to be a sequence of 2D tensors, but got tensors "
            "with shapes [torch.Size([1, 256, 3584])] instead. This is most likely due to incorrect "
            "implementation of the model's `get_multimodal_embeddings` method.",
            f"{_SITE}/vllm/v1/worker/utils.py",
            None,
        ),
        # one option only compatible with another: a setting
        (
            "ValueError: Pipeline parallel communication overlapping in warmup and flush is only compatible "
            "with overlap_p2p_comm but not batch_p2p_comm.",
            f"{_SITE}/megatron/core/model_parallel_config.py",
            "CFG014",
        ),
    ],
)
def test_what_a_library_blames_chooses_the_code(message: str, path: str, code: str | None) -> None:
    log = _tb(message, path, "__post_init__")
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings][:1] == ([code] if code else [])


def test_a_config_class_refusing_with_a_bare_assert_refuses_what_the_run_set_under_its_key() -> None:
    log = (
        "Error executing job with overrides: ['model.path=/models/qwen', 'optim.lr_scheduler_type=linear']\n"
        "Error in call to target 'verl.workers.config.optimizer.FSDPOptimizerConfig':\n"
        "AssertionError()\n"
        "full_key: optim\n"
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")
    assert "optim.lr_scheduler_type" in first.cause and "model.path" not in first.cause
    # nothing set under that key: still verl's config check, but no option is named
    other = log.replace("'optim.lr_scheduler_type=linear'", "'trainer.nnodes=1'")
    first = diagnose_text(other, _CATALOG).findings[0]
    assert first.rule == "CFG014" and "The failing check names" not in first.cause


def test_an_sft_checkpoint_given_as_the_model_is_the_path_not_a_missing_tokenizer_package() -> None:
    log = (
        "/opt/verl/verl/workers/engine/__init__.py:32: UserWarning: torchtitan engine is not available: "
        "ModuleNotFoundError(\"No module named 'torchtitan'\")\n"
        "Error executing job with overrides: ['model.path=/ckpt/gsm8k-sft/global_step_8']\n"
        "Error in call to target 'verl.workers.config.model.HFModelConfig':\n"
        "ValueError(\"Couldn't instantiate the backend tokenizer from one of: (1) a `tokenizers` library "
        'serialization file")\n'
        "full_key: model\n"
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["CFG017"]


def test_a_generation_config_checking_its_values_checks_settings() -> None:
    log = _tb(
        "ValueError: `num_return_sequences` (8) has to be smaller or equal to `num_beams` (1).",
        f"{_SITE}/transformers/generation/configuration_utils.py",
        "validate",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG014"


def test_a_batchs_parts_are_not_config_keys() -> None:
    log = _tb(
        "AssertionError: old_log_probs must be in data.batch.keys()",
        "/opt/verl/verl/workers/actor/megatron_actor.py",
        "compute_log_prob",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == []


def test_a_parallel_size_only_one_backend_takes_refuses_the_backend_chosen() -> None:
    log = _tb(
        "AssertionError: moe_tensor_parallel_size is only supported for trtllm",
        "/opt/verl/verl/workers/config/rollout.py",
        "__post_init__",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG014"


def test_a_config_section_the_run_set_to_one_value_is_that_override() -> None:
    log = (
        "Error executing job with overrides: ['algorithm.use_kl_in_reward=True', 'algorithm.kl_ctrl=adaptive']\n"
        + _tb(
            "AttributeError: 'str' object has no attribute 'type'",
            "/opt/verl/verl/trainer/ppo/core_algos.py",
            "get_kl_controller",
        )
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert first.rule == "CFG014" and "algorithm.kl_ctrl.type" in first.cause


def test_what_a_script_passes_to_verls_functions_is_read_by_its_words() -> None:
    def script(last: str) -> str:
        return _frames(
            ("/home/u/ablation.py", "<module>", "adv = fn(token_level_rewards=r, index=idx, config=cfg)"),
            ("/opt/verl/verl/trainer/ppo/core_algos.py", "compute_grpo_passk_outcome_advantage", "raise X"),
            last=last,
        )

    # a count of samples a setting gives (rollout.n) is a setting, whoever called
    counted = script("ValueError: Pass@k requires at least 2 samples per group. Got 1 for group uid-0.")
    assert diagnose_text(counted, _CATALOG).findings[0].rule == "CFG014"
    # an object of a config class the script passed is not
    passed = script("AssertionError: passing AlgoConfig not supported yet")
    assert [f.rule for f in diagnose_text(passed, _CATALOG).findings] == []


def test_a_samples_processed_pixels_are_no_setting() -> None:
    log = _tb(
        "RuntimeError: Cannot pad multi-modal input 'pixel_values'; expected matching rank and "
        "non-batch/non-time dimensions, got shapes: [(2484, 1176), (1, 3, 448, 448)]",
        "/opt/verl/verl/utils/model.py",
        "_pad_last_dim_and_cat",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == []


def test_an_attribute_looked_up_by_a_name_a_setting_holds_is_that_setting_not_another_release() -> None:
    frames = (
        (
            "/opt/verl/verl/workers/fsdp_workers.py",
            "_build_model_optimizer",
            "build_optimizer(params, optim_config)",
        ),
    )
    dynamic = (
        *frames,
        (
            "/opt/verl/verl/workers/config/optimizer.py",
            "build_optimizer",
            "cls = getattr(module, config.optimizer)",
        ),
    )
    last = "AttributeError: module 'torch.optim' has no attribute 'AdamW8bit'"
    found = diagnose_text(_frames(*dynamic, last=last), _CATALOG).findings
    assert [(f.rule, f.confidence) for f in found] == [("CFG014", "medium")]
    assert "optimizer" in found[0].cause
    # a name the code holds but no setting: no release to blame, nothing else claimed
    local = (
        *frames,
        ("/opt/verl/verl/workers/config/optimizer.py", "build_optimizer", "cls = getattr(module, name)"),
    )
    assert diagnose_text(_frames(*local, last=last), _CATALOG).findings == ()
    # the name written in the code is code written against another release of torch
    written = (
        *frames,
        ("/opt/verl/verl/workers/config/optimizer.py", "build_optimizer", "cls = torch.optim.AdamW8bit"),
    )
    assert diagnose_text(_frames(*written, last=last), _CATALOG).findings[0].rule == "ENV013"


def test_a_package_saying_its_version_is_not_compatible_is_that_packages_version() -> None:
    log = _frames(
        ("/workspace/tools/replay_buffer.py", "load_shard", "batch = pickle.loads(payload)"),
        (f"{_SITE}/tensordict/memmap.py", "from_handler", "raise RuntimeError("),
        last="RuntimeError: The PyTorch version isn't compatible with memmap nested tensors. Please upgrade "
        "to a more recent version.",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("ENV013", "medium")
    assert "torch" in first.cause


def test_a_key_missing_from_what_a_function_returned_is_no_field_of_the_data() -> None:
    reward = "/opt/verl/verl/experimental/reward_loop/reward_manager/naive.py"
    returned = _frames((reward, "run_single", 'score = result["score"]'), last="KeyError: 'score'")
    assert diagnose_text(returned, _CATALOG).findings == ()
    # the same key read from a sample is a field the data lacks
    row = _frames(
        (reward, "run_single", 'ground_truth = data_item.non_tensor_batch["reward_model"]["ground_truth"]'),
        last="KeyError: 'ground_truth'",
    )
    assert diagnose_text(row, _CATALOG).findings[0].rule == "CFG012"


def test_a_users_script_given_verls_overrides_sets_them() -> None:
    command = (
        "$ python3 check_reward.py actor_rollout_ref.model.path=/models/q reward.custom_reward_function.path=r.py "
        "+reward.custom_reward_function.reward_kwargs.format_weight=0.1 --seed=3 out=./x\n"
    )
    log = command + _frames(
        (
            "/opt/verl/verl/trainer/ppo/reward.py",
            "_call_with_kwargs",
            "return raw_fn(*args, **merged_kwargs)",
        ),
        last="TypeError: compute_score() got an unexpected keyword argument 'format_weight'",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert first.rule == "CFG014"
    assert "reward.custom_reward_function.reward_kwargs.format_weight" in first.cause
    # without the override, the function does not take what verl's contract passes it
    plain = diagnose_text(
        log.replace(" +reward.custom_reward_function.reward_kwargs.format_weight=0.1", ""), _CATALOG
    )
    assert plain.findings[0].rule == "CFG008"


def test_building_a_config_part_failing_on_an_attribute_the_run_set_is_that_override() -> None:
    command = (
        "$ python3 -m verl.trainer.main_ppo +actor_rollout_ref.model.override_config.rope_scaling.type=yarn "
        "+actor_rollout_ref.model.override_config.rope_scaling.factor=4.0\n"
    )
    wrapper = (
        "hydra.errors.InstantiationException: Error in call to target 'verl.workers.config.model.HFModelConfig':\n"
        "AttributeError(\"'dict' object has no attribute 'type'\")\n"
        "full_key: actor_rollout_ref.model\n"
    )
    first = diagnose_text(command + wrapper, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")
    assert "rope_scaling.type" in first.cause
    # an attribute no override of that part sets tells nothing about the run's values
    other = diagnose_text(command + wrapper.replace("'type'", "'dtype'"), _CATALOG)
    assert [f.rule for f in other.findings] != ["CFG014"]


@pytest.mark.parametrize(
    ("tokenizer_file", "code"),
    [("tokenization_utils_fast.py", "ENV009"), ("tokenization_utils_tokenizers.py", "CFG017")],
)
def test_the_backend_tokenizer_refusal_is_read_by_the_transformers_release_that_raised_it(
    tokenizer_file: str, code: str
) -> None:
    log = _frames(
        (
            "/opt/verl/verl/utils/tokenizer.py",
            "hf_tokenizer",
            "tokenizer = AutoTokenizer.from_pretrained(path)",
        ),
        (f"{_SITE}/transformers/{tokenizer_file}", "__init__", "raise ValueError("),
        # (printed over five lines, as the message holds newlines)
        last="ValueError: Couldn't instantiate the backend tokenizer from one of: \n(1) a `tokenizers` library "
        "serialization file, \n(2) a slow tokenizer instance to convert or \n(3) an equivalent slow tokenizer "
        "class to instantiate and convert. \nYou need to have sentencepiece or tiktoken installed to convert a "
        "slow tokenizer to a fast one.",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == [code]


def test_a_package_release_that_breaks_loading_the_users_module_is_the_cause() -> None:
    log = _frames(
        ("/opt/verl/verl/utils/import_utils.py", "load_module", "spec.loader.exec_module(module)"),
        ("/work/rewards/math_reward.py", "<module>", "from math_verify import parse"),
        (
            f"{_SITE}/latex2sympy2_extended/gen/PSParser.py",
            "PSParser",
            "atn = ATNDeserializer().deserialize(x)",
        ),
        (f"{_SITE}/antlr4/atn/ATNDeserializer.py", "adjust", "v = ord(c) - 2"),
        last="TypeError: ord() expected string of length 1, but int found",
    )
    log += _CAUSED + _frames(
        (
            "/opt/verl/verl/utils/import_utils.py",
            "load_module",
            'raise RuntimeError(f"Error loading module")',
        ),
        last="RuntimeError: Error loading module from module_path='rewards/math_reward.py'",
    )
    found = diagnose_text(log, _CATALOG).findings
    assert [f.rule for f in found] == ["ENV013"]
    assert "antlr4" in found[0].cause


def test_a_model_shipping_its_own_code_explains_the_model_type_transformers_does_not_know() -> None:
    log = (
        "[transformers] You are using a model of type `tinymath` to instantiate a model of type ``. This may "
        "be expected if you are loading a checkpoint that shares a subset of the architecture.\n"
        + _frames(
            (
                f"{_SITE}/transformers/dynamic_module_utils.py",
                "resolve_trust_remote_code",
                "raise ValueError(",
            ),
            last="ValueError: The repository /models/tinymath contains custom code which must be executed to "
            "correctly load the model. Please pass the argument `trust_remote_code=True` to allow custom code "
            "to be run.",
        )
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["CFG007"]


def test_vllms_trust_remote_code_advice_yields_to_the_error_chained_above_it() -> None:
    """vLLM wraps any failure to load a tokenizer or config in the same advice to set
    trust_remote_code: the error it chains from says what failed (a tokenizer class of
    transformers 5 under transformers 4); alone, the advice is a low lead."""
    advice = (
        "RuntimeError: Failed to load the tokenizer. If the tokenizer is a custom tokenizer not yet available "
        "in the HuggingFace transformers library, consider setting `trust_remote_code=True` in LLM or using the "
        "`--trust-remote-code` flag in the CLI."
    )
    cause = _frames(
        (
            f"{_SITE}/vllm/transformers_utils/tokenizer.py",
            "get_tokenizer",
            "tokenizer = AutoTokenizer.from_pretrained(",
        ),
        (f"{_SITE}/transformers/models/auto/tokenization_auto.py", "from_pretrained", "raise ValueError("),
        last="ValueError: Tokenizer class TokenizersBackend does not exist or is not currently imported.",
    )
    wrapper = _frames(
        ("/home/me/eval/run_eval.py", "main", "llm = LLM("),
        (
            f"{_SITE}/vllm/transformers_utils/tokenizer.py",
            "get_tokenizer",
            "raise RuntimeError(err_msg) from e",
        ),
        last=advice,
    )
    log = cause + _CAUSED + wrapper
    found = diagnose_text(log, _CATALOG).findings
    assert found[0].rule == "ENV010"
    assert [(f.rule, f.confidence) for f in found[1:]] in ([], [("CFG007", "low")])
    # alone, in a script of the user's with no verl run in the log: the advice is only a hint on
    # the exception, which no setting of verl's explains
    alone = diagnose_text(wrapper, _CATALOG)
    assert not alone.findings
    assert "CFG007" in (alone.unrecognized[0].hint or "")


@pytest.mark.parametrize(
    ("override", "code"),
    [("trainer.n_gpus_per_node=0", "CFG003"), ("data.train_batch_size=0", "CFG014")],
)
def test_verl_dividing_by_a_count_the_run_set_to_zero_is_that_setting(override: str, code: str) -> None:
    log = f"$ python3 -m verl.trainer.main_ppo trainer.nnodes=1 {override}\n" + _frames(
        (
            "/opt/verl/verl/trainer/ppo/ray_trainer.py",
            "_validate_config",
            "assert real_bsz % minimal_bsz == 0",
        ),
        last="ZeroDivisionError: integer modulo by zero",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == (code, "medium")
    assert override.split("=")[0] in first.cause
    # no count set to 0: nothing to blame
    assert diagnose_text(log.replace("=0\n", "=8\n"), _CATALOG).findings == ()


@pytest.mark.parametrize("value", ["0", "-8"])
def test_a_verl_check_on_a_batch_size_the_run_set_to_zero_or_below_is_that_value(value: str) -> None:
    # a bare AssertionError: only the statement Python printed says what it checked
    log = f"$ python3 -m verl.trainer.main_ppo data.train_batch_size={value} trainer.nnodes=1\n" + _frames(
        (
            "/opt/verl/verl/trainer/ppo/ray_trainer.py",
            "_validate_config",
            "assert config.data.train_batch_size >= config.actor_rollout_ref.actor.ppo_mini_batch_size",
        ),
        last="AssertionError",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")
    assert "data.train_batch_size" in first.cause and f"({value})" in first.cause
    # a batch size the run set to a usable number leaves the check's own arithmetic
    usable = log.replace(f"data.train_batch_size={value} ", "data.train_batch_size=2 ")
    assert diagnose_text(usable, _CATALOG).findings[0].rule == "CFG004"


def test_a_package_saying_it_is_not_installed_from_its_own_code_has_a_broken_extension() -> None:
    log = _frames(
        (
            "/workspace/my_models/modeling_custom.py",
            "__init__",
            "self.attn = FlashSelfAttention(causal=True)",
        ),
        (
            f"{_SITE}/flash_attn/modules/mha.py",
            "__init__",
            "assert flash_attn_varlen_qkvpacked_func is not None",
        ),
        last="AssertionError: FlashAttention is not installed",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("ENV006", "medium")
    # said from elsewhere, the package is missing
    elsewhere = log.replace(f"{_SITE}/flash_attn/modules/mha.py", "/workspace/my_models/attn.py")
    assert diagnose_text(elsewhere, _CATALOG).findings[0].rule == "ENV009"


def test_a_script_reading_a_part_of_a_model_config_is_not_building_the_library() -> None:
    log = _frames(
        ("/workspace/tools/inspect_vlm.py", "<module>", "hidden = config.get_text_config().hidden_size"),
        (f"{_SITE}/transformers/configuration_utils.py", "get_text_config", "raise ValueError("),
        last="ValueError: Multiple valid text configs were found in the model config: ['text_config', "
        "'thinker_config']. In this case, using `get_text_config()` would be ambiguous.",
    )
    assert diagnose_text(log, _CATALOG).findings == ()


def test_a_ray_process_killed_by_a_package_release_explains_the_start_up_timeout() -> None:
    log = (
        "ImportError: Pydantic v1 is no longer supported in Ray. Please upgrade to `pydantic>=2`.\n"
        "2026-12-06 00:09:41,112\tERROR services.py:1362 -- Failed to start the dashboard\n"
        "Exception: The current node timed out during startup. This could happen because some of the raylet "
        "failed to startup or the GCS has become overloaded.\n"
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["ENV013"]


def test_a_packages_own_words_that_it_does_not_seem_installed_name_it() -> None:
    log = _frames(
        ("/workspace/recipe/monitor/gpu_stats.py", "collect", 'stats["gpu/util"] = torch.cuda.utilization()'),
        (f"{_SITE}/torch/cuda/__init__.py", "_get_pynvml_handler", "raise ModuleNotFoundError("),
        last="ModuleNotFoundError: nvidia-ml-py does not seem to be installed or it can't be imported.",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("ENV009", "medium")


def test_a_placeholder_left_in_a_hydra_defaults_list_is_a_value_not_given() -> None:
    log = _frames(
        (f"{_SITE}/hydra/_internal/defaults_list.py", "_create_defaults_tree_impl", "if _check_not_missing("),
        (f"{_SITE}/hydra/_internal/defaults_list.py", "_check_not_missing", "raise ValueError("),
        last="ValueError: Missing ConfigDefault is not supported : ???",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["CFG011"]
    named = log.replace(": ???", ": rollout/vllm_v2")
    assert [f.rule for f in diagnose_text(named, _CATALOG).findings] == ["CFG020"]


def test_a_worker_that_failed_is_not_a_bound_on_a_value() -> None:
    log = _frames(
        ("/workspace/verl/examples/data_preprocess/big_corpus.py", "<module>", "ds = load_dataset(**kw)"),
        (f"{_SITE}/datasets/builder.py", "_prepare_split", "assert None not in examples_per_job, ("),
        last="AssertionError: Failed to retrieve results from prepare_split: result list [412311, None] still "
        "contains None - at least one worker failed to return its results",
    )
    assert diagnose_text(log, _CATALOG).findings == ()


@pytest.mark.parametrize(
    ("caller", "path", "message"),
    [
        # Megatron's distributed checkpointing judges a checkpoint, not a setting
        (
            ("/opt/verl/verl/workers/megatron_workers.py", "load_checkpoint", "self.engine.load()"),
            f"{_SITE}/megatron/core/dist_checkpointing/mapping.py",
            "ValueError: Invalid dict key params non-integer type encountered in a list-dict merge at level "
            "('optimizer', 'param_groups')",
        ),
        # the engines' collective back-ends probe the machine's libraries
        (
            (
                f"{_SITE}/sglang/srt/distributed/device_communicators/custom_all_reduce.py",
                "__init__",
                "CudaRTLib()",
            ),
            f"{_SITE}/sglang/srt/distributed/device_communicators/cuda_wrapper.py",
            "AssertionError: Unexpected filename: libcuhook.so for library libcudart",
        ),
    ],
)
def test_library_code_that_judges_what_it_finds_is_no_config_check(
    caller: tuple[str, str, str], path: str, message: str
) -> None:
    log = _frames(caller, (path, "check", "raise ValueError("), last=message)
    assert not [f for f in diagnose_text(log, _CATALOG).findings if f.rule in ("CFG014", "CFG010")]


@pytest.mark.parametrize(
    "message",
    [
        "AssertionError: expecting {'step_rewards': tensor([[0.81, 0.62]])} to be DataProto, but got <class 'dict'>",
        "TypeError: keys must be a list or a string, but got <class 'tuple'>",
    ],
)
def test_verl_refusing_an_object_only_code_hands_over_is_no_setting(message: str) -> None:
    log = _frames(
        ("/workspace/recipe/prm/prm_trainer.py", "fit", "out = self.prm_wg.compute_step_rewards(batch)"),
        ("/opt/verl/verl/protocol.py", "rename", "raise TypeError(msg)"),
        last=message,
    )
    assert diagnose_text(log, _CATALOG).findings == ()


def test_verl_patching_an_engine_class_that_lacks_what_it_patches_is_the_engines_release() -> None:
    log = _frames(
        (
            "/opt/verl/verl/workers/sharding_manager/fsdp_vllm.py",
            "update_params",
            "patch_vllm_moe_model_weight_loader(m)",
        ),
        ("/opt/verl/verl/utils/vllm_utils.py", "patch_vllm_moe_model_weight_loader", "raise ValueError("),
        last="ValueError: The provided model does not have a valid 'model' or 'language_model' attribute.",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("ENV004", "medium")
    # the same words from verl code that patches nothing are not the engine's release
    elsewhere = log.replace("patch_vllm_moe_model_weight_loader", "load_weights")
    assert diagnose_text(elsewhere, _CATALOG).findings[0].rule != "ENV004"


def test_verls_replacement_of_a_transformers_forward_missing_a_config_field_is_the_release() -> None:
    """verl/models/transformers/ holds verl's replacements of transformers' model code: what
    they read of a model class or its config that this transformers no longer has is that
    release, whatever the function's name."""
    log = _frames(
        (f"{_SITE}/transformers/models/glm4v/modeling_glm4v.py", "forward", "attn_output = self.self_attn("),
        ("/opt/verl/verl/models/transformers/glm4v.py", "glm4v_attn_forward", "assert getattr(self, ..."),
        last="AssertionError: Either rope_scaling or rope_parameter should be defined in the config for GLM4V.",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("ENV010", "medium")


def test_a_config_validated_as_it_is_saved_holds_the_runs_values_not_the_folders() -> None:
    log = _frames(
        (
            "/opt/verl/verl/utils/checkpoint/fsdp_checkpoint_manager.py",
            "save_checkpoint",
            "cfg.save_pretrained(p)",
        ),
        (f"{_SITE}/transformers/configuration_utils.py", "save_pretrained", "self.validate()"),
        (f"{_SITE}/huggingface_hub/dataclasses.py", "validate", "validator(self)"),
        (f"{_SITE}/transformers/configuration_utils.py", "validate_layer_type", "raise ValueError("),
        last="ValueError: `num_hidden_layers` (4) must be equal to the number of `layer_types` (36)",
    )
    assert "CFG017" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]


def test_a_name_a_config_file_gives_missing_from_the_users_module_is_a_custom_module_error() -> None:
    log = _frames(
        (
            "/opt/verl/verl/tools/tool_registry.py",
            "initialize_tools_from_config",
            "tool_cls = get_tool_class(cls_name)",
        ),
        ("/opt/verl/verl/tools/tool_registry.py", "get_tool_class", "tool_cls = getattr(module, class_name)"),
        last="AttributeError: module 'my_tools.calculator_tool' has no attribute 'Calculator'. "
        "Did you mean: 'CalculatorTool'?",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG008", "medium")
    assert "Calculator in your module my_tools.calculator_tool" in first.cause
    assert any("import my_tools.calculator_tool as m" in c for fix in first.fixes for c in fix.commands)
    # a known package's module lacking the name is another matter (its release, or a setting)
    torch_module = log.replace("my_tools.calculator_tool", "torch.optim")
    assert "CFG008" not in [f.rule for f in diagnose_text(torch_module, _CATALOG).findings]


def test_pydantic_saying_a_field_is_required_is_a_value_not_given() -> None:
    log = (
        _frames(
            (
                "/opt/verl/verl/tools/tool_registry.py",
                "initialize_tools_from_config",
                "OpenAIFunctionToolSchema.model_validate(d)",
            ),
            (
                f"{_SITE}/pydantic/main.py",
                "model_validate",
                "return cls.__pydantic_validator__.validate_python(",
            ),
            last="pydantic_core._pydantic_core.ValidationError: 1 validation error for OpenAIFunctionToolSchema",
        )
        + "function.description\n"
        "  Field required [type=missing, input_value={'name': 'calculator'}, input_type=dict]\n"
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG011"


def test_pydantic_refusing_what_a_server_answered_is_no_setting() -> None:
    # (verl's generation server parsing the rollout server's reply: an error body has none of
    # a completion's fields, which says nothing of the run's settings)
    log = (
        _frames(
            (
                "/opt/verl/verl/trainer/main_generation_server.py",
                "submit_request",
                "return ChatCompletion(**data)",
            ),
            (
                f"{_SITE}/pydantic/main.py",
                "__init__",
                "validated_self = self.__pydantic_validator__.validate_python(data, self_instance=self)",
            ),
            last="pydantic_core._pydantic_core.ValidationError: 5 validation errors for ChatCompletion",
        )
        + "id\n"
        "  Field required [type=missing, input_value={'object': 'error', 'message': 'bad'}, input_type=dict]\n"
    )
    assert not diagnose_text(log, _CATALOG).findings
    # the same refusal of a class built from settings stays a value not given
    config = log.replace("ChatCompletion", "SamplingConfig")
    assert diagnose_text(config, _CATALOG).findings[0].rule == "CFG011"


def test_a_batch_size_checked_against_the_gpu_count_is_batch_arithmetic() -> None:
    log = _frames(
        ("/opt/verl/verl/trainer/ppo/ray_trainer.py", "__init__", "self._validate_config()"),
        (
            "/opt/verl/verl/trainer/ppo/ray_trainer.py",
            "_validate_config",
            "assert config.actor_rollout_ref.actor.ppo_micro_batch_size * sp_size >= n_gpus",
        ),
        last="AssertionError",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG004"


def test_a_strategy_no_verl_has_ends_the_entry_points_dispatch() -> None:
    log = (
        "$ python3 -m verl.trainer.main_ppo trainer.nnodes=1 actor_rollout_ref.actor.strategy=fsdp_v2\n"
        + _frames(
            ("/opt/verl/verl/trainer/main_ppo.py", "main", "run_ppo(config)"),
            ("/opt/verl/verl/trainer/main_ppo.py", "run", "raise NotImplementedError"),
            last="NotImplementedError",
        )
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")
    assert "actor_rollout_ref.actor.strategy" in first.cause
    # the step names the setting, and of what the run set, only that setting
    assert [n for fix in first.fixes for n in fix.notes] == [
        "you set actor_rollout_ref.actor.strategy=fsdp_v2"
    ]
    # a strategy verl has is not what the dispatch refused
    assert diagnose_text(log.replace("fsdp_v2", "fsdp2"), _CATALOG).findings == ()


@pytest.mark.parametrize(
    ("caller", "raising", "message"),
    [
        # a collective on an engine's process group that is gone: the engine's state, no setting
        (
            (
                f"{_SITE}/sglang/srt/layers/linear.py",
                "forward",
                "output = tensor_model_parallel_all_reduce(x)",
            ),
            (
                f"{_SITE}/sglang/srt/distributed/parallel_state.py",
                "outplace_all_reduce",
                "raise ValueError(msg)",
            ),
            "ValueError: Group tp:0 is destroyed.",
        ),
        # DataProto judging the data a script hands it
        (
            ("/home/bob/proj/offline_buffer.py", "to_dataproto", "return DataProto.from_tensordict(td, 2)"),
            ("/opt/verl/verl/protocol.py", "from_tensordict", "assert num_batch_dims == 1, msg"),
            "AssertionError: only support num_batch_dims=1 when tensor_dict contains non tensor data.",
        ),
    ],
)
def test_state_and_data_checks_are_no_config_guess(
    caller: tuple[str, str, str], raising: tuple[str, str, str], message: str
) -> None:
    log = _frames(caller, raising, last=message)
    assert not [f for f in diagnose_text(log, _CATALOG).findings if f.category == "config"]


def test_no_backend_installed_among_the_valid_ones_names_the_first() -> None:
    log = _frames(
        ("/workspace/sft/train_fp8.py", "main", 'accelerator = Accelerator(mixed_precision="fp8")'),
        (f"{_SITE}/accelerate/accelerator.py", "__init__", "raise ImportError("),
        last="ImportError: Tried to train with `fp8` and auto-detect backend, but no FP8-compatible backend was "
        "installed. Valid backends are: `torchao`, `transformer-engine`, and `msamp`.",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("ENV009", "medium")
    assert any("torchao" in c for fix in first.fixes for c in fix.commands)


def test_ray_refusing_an_actors_resources_is_a_setting() -> None:
    log = _frames(
        ("/opt/verl/verl/trainer/main_ppo.py", "run_ppo", "runner = TaskRunner.options(**opts).remote()"),
        (f"{_SITE}/ray/actor.py", "_remote", "resources = ray._private.utils.resources_from_ray_options(o)"),
        (f"{_SITE}/ray/_private/utils.py", "resources_from_ray_options", "raise ValueError("),
        last="ValueError: The resources dictionary must not contain the key 'memory' or 'object_store_memory'",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG014"


def test_a_reward_function_the_config_never_gave_is_a_missing_value() -> None:
    log = _frames(
        (
            "/opt/verl/verl/trainer/main_eval.py",
            "process_item",
            "score_lst = [reward_fn(data_source, r, gt) for r in rs]",
        ),
        (
            "/opt/verl/verl/trainer/main_eval.py",
            "<listcomp>",
            "score_lst = [reward_fn(data_source, r, gt) for r in rs]",
        ),
        last="TypeError: 'NoneType' object is not callable",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG011", "medium")
    assert any("custom_reward_function.path=" in c for fix in first.fixes for c in fix.commands)
    # another None called (an optional kernel that did not import) is no reward function
    kernel = log.replace("reward_fn(", "flash_attn_varlen_func(")
    assert "CFG011" not in [f.rule for f in diagnose_text(kernel, _CATALOG).findings]


def test_a_mapping_the_run_quoted_into_text_is_that_settings_value() -> None:
    log = (
        "$ python3 -m verl.trainer.main_ppo trainer.nnodes=1 "
        "'actor_rollout_ref.model.override_config=\"{attn_implementation: sdpa}\"'\n"
        + _frames(
            (
                f"{_SITE}/hydra/_internal/instantiate/_instantiate2.py",
                "_call_target",
                "raise InstantiationException(m)",
            ),
            last="hydra.errors.InstantiationException: Error in call to target 'verl.workers.config.model.HFModelConfig':",
        )
        + "AttributeError(\"'str' object has no attribute 'get'\")\n"
        "full_key: actor_rollout_ref.model\n"
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")
    assert "actor_rollout_ref.model.override_config" in first.cause
    # unquoted, Hydra builds the mapping: nothing points at that setting
    plain = log.replace("'actor_rollout_ref.model.override_config=\"{attn_implementation: sdpa}\"'", "x.y=1")
    assert "actor_rollout_ref.model.override_config" not in " ".join(
        f.cause for f in diagnose_text(plain, _CATALOG).findings
    )


def test_the_init_a_dataclass_generates_passes_the_call_on() -> None:
    # `File "<string>", in __init__` between the caller and the class's __post_init__: a user's
    # script building a library's config class is the script's values; verl (or mbridge, called
    # by verl) building it from the config is a setting of the run.
    post_init = (
        f"{_SITE}/megatron/core/distributed/distributed_data_parallel_config.py",
        "__post_init__",
        'assert self.fp8_param_gather, "Reuse grad buffer only when keeping params in MXFP8."',
    )
    last = "AssertionError: Reuse grad buffer only when keeping params in MXFP8."
    by_script = _frames(
        ("/workspace/scripts/train.py", "main", "cfg = DistributedDataParallelConfig(**kwargs)"),
        ("<string>", "__init__", ""),
        post_init,
        last=last,
    )
    assert diagnose_text(by_script, _CATALOG).findings == ()
    by_verl = _frames(
        ("/opt/verl/verl/workers/megatron_workers.py", "_build_model_optimizer", "model = bridge.get_model("),
        (
            f"{_SITE}/mbridge/core/util.py",
            "get_model",
            "ddp_config = DistributedDataParallelConfig(**kwargs)",
        ),
        ("<string>", "__init__", ""),
        post_init,
        last=last,
    )
    assert diagnose_text(by_verl, _CATALOG).findings[0].rule == "CFG014"


def test_a_refusal_that_names_an_engine_flag_is_that_setting_whoever_called() -> None:
    # a user's recipe calling SGLang while it runs: the refusal still names the flag to change
    frames = (
        (
            "/workspace/recipe/multi_lora/lora_rollout.py",
            "register_adapters",
            "await mgr.load_lora_adapter(req)",
        ),
        (
            f"{_SITE}/sglang/srt/lora/lora_manager.py",
            "load_lora_adapter",
            "self.validate_new_adapter(a, ref)",
        ),
        (f"{_SITE}/sglang/srt/lora/lora_manager.py", "validate_new_adapter", "raise ValueError("),
    )
    flag = (
        "ValueError: Failed to load LoRA adapter math as a pinned adapter. It is not allowed to pin all slots. "
        "Please increase your `--max-loras-per-batch` or load it as unpinned LoRA adapters."
    )
    worker = "(WorkerDict pid=7) "
    assert diagnose_text(_frames(*frames, last=flag, prefix=worker), _CATALOG).findings[0].rule == "CFG014"
    # an argument of the calling code (`use_dora`, no setting of verl's) is that code's doing
    dora = "ValueError: MultiheadAttention does not support DoRA (yet), please set use_dora to False"
    assert diagnose_text(_frames(*frames, last=dora, prefix=worker), _CATALOG).findings == ()


def test_a_check_of_runtime_state_called_from_a_progress_check_is_no_settings_check() -> None:
    log = _frames(
        (
            f"{_SITE}/sglang/srt/managers/scheduler.py",
            "get_new_batch_prefill",
            "self.tree_cache.check_prefetch_progress(rid)",
        ),
        (
            f"{_SITE}/sglang/srt/mem_cache/hiradix_cache.py",
            "check_prefetch_progress",
            "pool.update_prefetch(idx)",
        ),
        (f"{_SITE}/sglang/srt/mem_cache/memory_pool_host.py", "update_prefetch", "raise ValueError("),
        last="ValueError: The host memory slots should be in RESERVED state before turning into BACKUP. "
        "Current state: MemoryStateInt.IDLE",
    )
    assert diagnose_text(log, _CATALOG).findings == ()


def test_an_option_a_library_asks_to_be_specified_was_not_given() -> None:
    log = _frames(
        (
            "/opt/verl/verl/workers/fsdp_workers.py",
            "_build_model_optimizer",
            "module = get_peft_model(module, cfg)",
        ),
        (f"{_SITE}/peft/mapping_func.py", "get_peft_model", "return PeftModelForCausalLM(model, config)"),
        (f"{_SITE}/peft/tuners/lora/model.py", "_prepare_adapter_config", "raise ValueError("),
        last="ValueError: Please specify `target_modules` in `peft_config`",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG011"


def test_verls_own_megatron_model_registry_is_no_rollout_engine_release() -> None:
    verl = (
        "ValueError: Model architectures ['Gemma2ForCausalLM'] are not supported for now. "
        "Supported architectures: ['LlamaForCausalLM', 'Qwen2ForCausalLM']"
    )
    log = _tb(verl, "/opt/verl/verl/utils/model.py", "_get_parallel_model_architecture_from_config")
    assert "ENV004" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]
    vllm = verl.replace(
        "['LlamaForCausalLM', 'Qwen2ForCausalLM']", "dict_keys(['AquilaModel', 'LlamaForCausalLM'])"
    )
    engine = _tb(vllm, f"{_SITE}/vllm/model_executor/models/registry.py", "_raise_for_unsupported")
    assert diagnose_text(engine, _CATALOG).findings[0].rule == "ENV004"


def test_resuming_with_an_hdfs_folder_set_is_that_setting() -> None:
    # verl's trainer raises it only when trainer.default_hdfs_dir is set (ray_trainer.py _load_checkpoint)
    refusal = _tb(
        "NotImplementedError: load from hdfs is not implemented yet",
        "/opt/verl/verl/trainer/ppo/ray_trainer.py",
        "_load_checkpoint",
        'raise NotImplementedError("load from hdfs is not implemented yet")',
    )
    first = diagnose_text(refusal, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "high")
    assert "trainer.default_hdfs_dir=null" in first.fixes[0].commands


def test_a_tensor_of_a_type_the_code_was_handed_is_no_setting() -> None:
    log = _frames(
        (
            "/opt/verl/verl/workers/megatron_workers.py",
            "_build_model_optimizer",
            "optimizer = get_optimizer(",
        ),
        (f"{_SITE}/megatron/core/optimizer/distrib_optimizer.py", "__init__", ") = self._build_groups("),
        (f"{_SITE}/megatron/core/optimizer/distrib_optimizer.py", "_build_groups", "raise TypeError("),
        last="TypeError: Wrapped parameters must be one of torch.cuda.FloatTensor,  torch.cuda.HalfTensor, or "
        "torch.cuda.BFloat16Tensor. Received torch.cuda.DoubleTensor",
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]


def test_flags_an_engine_refuses_are_verls_settings_only_where_the_log_shows_verl_ran() -> None:
    """An engine built by a script of the user's, with nothing of verl in the log (no verl frame,
    command, override or Ray actor): the flags it refuses are that script's, not verl's config;
    the same refusal printed by one of verl's workers is a setting of the run."""
    frames = (
        ("/workspace/serve/launch_rm_server.py", "main", "vllm_config = engine_args.create_engine_config()"),
        (f"{_SITE}/vllm/engine/arg_utils.py", "create_engine_config", "raise ValueError("),
    )
    last = (
        "ValueError: Invalid data-parallel launch options: `--data-parallel-hybrid-lb` and "
        "`--data-parallel-external-lb` cannot be enabled together. Enable only one load-balancing mode."
    )
    alone = diagnose_text(_frames(*frames, last=last), _CATALOG)
    assert not alone.findings
    assert [u.text for u in alone.unrecognized] == [last]
    in_verl = _frames(*frames, last=last, prefix="(WorkerDict pid=6391, ip=10.0.0.2) ")
    assert diagnose_text(in_verl, _CATALOG).findings[0].rule == "CFG014"
    # or a verl run the log shows anywhere: its command line
    command = "$ python3 -m verl.trainer.main_ppo trainer.n_gpus_per_node=8\n"
    assert diagnose_text(command + _frames(*frames, last=last), _CATALOG).findings[0].rule == "CFG014"


def test_a_users_script_kept_in_a_verl_checkout_is_no_verl_run() -> None:
    """A script the user keeps in a checkout's scripts/ folder building its own engine: the flags
    the engine refuses are the script's; the same refusal under verl's package code is the run's."""
    frames = (
        ("/home/amir/verl/scripts/filter_rollouts.py", "<module>", "llm = LLM(model=args.model, **extra)"),
        (f"{_SITE}/vllm/engine/arg_utils.py", "create_engine_config", "raise ValueError("),
    )
    last = (
        "ValueError: Invalid data-parallel launch options: `--data-parallel-hybrid-lb` and "
        "`--data-parallel-external-lb` cannot be enabled together. Enable only one load-balancing mode."
    )
    assert not diagnose_text(_frames(*frames, last=last), _CATALOG).findings
    in_package = (
        (
            "/home/amir/verl/verl/workers/rollout/vllm_rollout/vllm_async_server.py",
            "launch_server",
            "engine_args.create_engine_config()",
        ),
        frames[1],
    )
    assert diagnose_text(_frames(*in_package, last=last), _CATALOG).findings[0].rule == "CFG014"


def test_a_model_parameter_a_converter_does_not_map_is_no_setting() -> None:
    # (the trainer's frame waiting on the worker, then the worker's frames Ray relays)
    log = (
        '  File "/workspace/verl/verl/checkpoint_engine/base.py", line 413, in update_weights\n'
        "    ray.get(self.trainer.update_weights(global_steps=global_steps))\n"
        "ray.exceptions.RayTaskError(NotImplementedError): ray::WorkerDict.actor_rollout_update_weights() "
        "(pid=733512, ip=10.0.12.41, actor_id=0e9d3b57c8a1f26e4d09a7e301000000)\n"
        '  File "/workspace/verl/verl/single_controller/ray/base.py", line 936, in async_func\n'
        '  File "/workspace/verl/verl/single_controller/base/decorator.py", line 433, in async_inner\n'
        '  File "/workspace/verl/verl/workers/megatron_workers.py", line 989, in update_weights\n'
        "    await self.rollout_mode()\n"
        '  File "/workspace/verl/verl/workers/rollout/vllm_rollout/vllm_rollout.py", line 172, in update_weights\n'
        "    await sender.async_send_weights(weights)\n"
        '  File "/workspace/verl/verl/utils/megatron_utils.py", line 1103, in per_tensor_generator\n'
        "    converted_names, converted_params = weight_converter.convert_param(cur_name, infer_params)\n"
        '  File "/workspace/verl/verl/models/mcore/weight_converter.py", line 100, in convert_param\n'
        '    raise NotImplementedError(f"Unsupported parameter name: {name}")\n'
        "NotImplementedError: Unsupported parameter name: decoder.layers.0.input_layernorm.weight\n"
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]


def test_a_model_parameter_name_is_no_config_key() -> None:
    log = _tb(
        "RuntimeError: delta state verification FAILED: 1843200 elements differ between the server's weights "
        "and the trainer's full export; top offenders: [('model.layers.0.mlp.gate_up_proj.weight', 921600)]",
        "/opt/verl/verl/workers/rollout/sglang_rollout/delta_loader.py",
        "_verify_dense",
        "raise RuntimeError(",
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]


def test_verls_patch_handed_inputs_of_another_shape_is_the_patched_librarys_release() -> None:
    log = _tb(
        "AssertionError: hidden_states should be 3D, [s, b, n*h], got 2D",
        "/opt/verl/verl/models/mcore/patch.py",
        "patch_get_query_key_value_tensors",
        'assert hidden_states.ndim == 3, f"hidden_states should be 3D, [s, b, n*h], got {hidden_states.ndim}D"',
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "ENV008"


@pytest.mark.parametrize(
    ("message", "pkg"),
    [
        ("ValueError: Polars needs to be installed to be able to return Polars dataframes.", "polars"),
        (
            "ValueError: the 'partitioning' keyword is not supported when the pyarrow.dataset module is not available",
            "pyarrow",
        ),
        (
            "RuntimeError: PyTorch should be installed. Please follow the instructions at https://pytorch.org/.",
            "torch",
        ),
        # an import that failed, saying what is not installed after its own words
        ("ImportError: Unable to convert output to MLX tensors format, MLX is not installed.", "MLX"),
    ],
)
def test_a_package_a_message_says_must_be_there_is_a_missing_dependency(message: str, pkg: str) -> None:
    first = diagnose_text(_tb(message, f"{_SITE}/datasets/arrow_dataset.py", "to_polars"), _CATALOG).findings[
        0
    ]
    assert first.rule == "ENV009"
    assert any(f"pip install {pkg}" in c for fix in first.fixes for c in fix.commands)


@pytest.mark.parametrize(
    ("path", "func", "message", "not_this"),
    [
        # the numbers of a URL compare no parallel sizes
        (
            f"{_SITE}/torch/distributed/rendezvous.py",
            "_rendezvous_helper",
            "AssertionError: The url: tcp://10.0.0.3:29500?rank=0&world_size=8 has node-specific arguments"
            "(rank, world_size) already.",
            "CFG010",
        ),
        # torch's `Distributed package` is torch.distributed, not the package called distributed
        (
            f"{_SITE}/torch/distributed/distributed_c10d.py",
            "_new_process_group_helper",
            "RuntimeError: Distributed package doesn't have MPI built in. MPI is only included if you build "
            "PyTorch from source on a host that has MPI installed.",
            "ENV013",
        ),
        # the runtime-env agent evicting a built environment from its cache checks no setting
        (
            f"{_SITE}/ray/_private/runtime_env/uv.py",
            "delete_uri",
            "ValueError: UvPlugin can only delete URIs with protocol uv. Received protocol Protocol.PIP, "
            "URI pip://a41c9e0d7f6b2e88",
            "CFG014",
        ),
    ],
)
def test_what_a_library_says_of_its_own_state_is_no_answer(
    path: str, func: str, message: str, not_this: str
) -> None:
    assert not_this not in [f.rule for f in diagnose_text(_tb(message, path, func), _CATALOG).findings]


def test_a_value_the_calling_script_wrote_in_its_call_is_that_scripts() -> None:
    # the user's own evaluation script builds a generation config with do_sample=True: the
    # refusal names `do_sample` (a name verl's config has too), but the script wrote the value
    generation = (
        f"{_SITE}/transformers/generation/configuration_utils.py",
        "validate",
        'raise ValueError(group_error_prefix + "`do_sample` must be set to `False`")',
    )
    last = (
        "ValueError: `diversity_penalty` is not 0.0 or `num_beam_groups` is not 1, triggering group "
        "beam search. In this generation mode, `do_sample` must be set to `False`"
    )
    by_script = _frames(
        (
            "/workspace/eval/beam_eval.py",
            "main",
            "cfg = GenerationConfig(num_beams=8, num_beam_groups=4, diversity_penalty=0.5, do_sample=True)",
        ),
        (f"{_SITE}/transformers/generation/configuration_utils.py", "__init__", "self.validate()"),
        generation,
        last=last,
    )
    assert diagnose_text(by_script, _CATALOG).findings == ()
    # a quoted value the message repeats, handed to verl's engine by a user's own trainer
    engine = (
        f"{_SITE}/verl/workers/engine/automodel/transformer_impl.py",
        "to",
        'raise ValueError(f"Invalid device type: {device}")',
    )
    last = "ValueError: Invalid device type: meta"
    literal = _frames(
        ("/workspace/my_trainer/offload.py", "park", "self.engine.to('meta', model=True)"), engine, last=last
    )
    assert diagnose_text(literal, _CATALOG).findings == ()
    # the same call with a value held in a variable says nothing of where it came from
    held = _frames(
        ("/workspace/my_trainer/offload.py", "park", "self.engine.to(device, model=True)"), engine, last=last
    )
    assert [f.rule for f in diagnose_text(held, _CATALOG).findings] == ["CFG014"]


def test_the_source_line_of_the_raising_statement_is_not_the_message() -> None:
    # the source line prints the f-string (`{parquet_file}`), which reads like the message of a
    # folder given as the data path; the message itself names a .csv file
    log = _frames(
        (
            f"{_SITE}/verl/utils/dataset/rl_dataset.py",
            "_read_files_and_tokenize",
            'raise ValueError(f"Unsupported file format: {parquet_file}")',
        ),
        last="ValueError: Unsupported file format: /data/gsm8k/train.csv",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["CFG014"]
    folder = log.replace("/data/gsm8k/train.csv", "/data/gsm8k")
    assert [f.rule for f in diagnose_text(folder, _CATALOG).findings] == ["CFG014"]
    assert "names a folder (/data/gsm8k)" in diagnose_text(folder, _CATALOG).findings[0].cause
    misspelt = log.replace("/data/gsm8k/train.csv", "/data/gsm8k/train.parqeut")
    assert [f.rule for f in diagnose_text(misspelt, _CATALOG).findings] == ["CFG013"]


def test_the_source_line_joined_with_the_line_under_it_is_not_the_message() -> None:
    # Python 3.11 marks the failing expression under the source line (`~~~^^^^`): read joined
    # with it, the assert's f-string still reads like a path that ends in a slash
    log = (
        f'  File "{_SITE}/verl/utils/fs.py", line 238, in copy_local_path_from_hdfs\n'
        '    assert src[-1] != "/", f"Make sure the last char in src is not / because it will cause error. Got {src}"\n'
        "           ~~~^^^^\n"
        "TypeError: 'NoneType' object is not subscriptable\n"
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]
    given = log.replace(
        "TypeError: 'NoneType' object is not subscriptable",
        "AssertionError: Make sure the last char in src is not / because it will cause error. Got /models/qwen/",
    )
    assert [f.rule for f in diagnose_text(given, _CATALOG).findings][:1] == ["CFG014"]


def test_a_saved_file_torch_cannot_read_back_while_resuming_is_the_resume() -> None:
    reader = (
        (f"{_SITE}/torch/serialization.py", "load", "return _legacy_load("),
        (
            f"{_SITE}/torch/serialization.py",
            "persistent_load",
            'raise RuntimeError(f"Unknown saved id type: {saved_id[0]}")',
        ),
    )
    last = "RuntimeError: Unknown saved id type: module"
    resuming = _frames(
        (f"{_SITE}/verl/trainer/ppo/ray_trainer.py", "fit", "self._load_checkpoint()"),
        (
            f"{_SITE}/verl/trainer/ppo/ray_trainer.py",
            "_load_checkpoint",
            "state = torch.load(dataloader_local_path, weights_only=False)",
        ),
        *reader,
        last=last,
    )
    first = diagnose_text(resuming, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("FLOW014", "medium")
    # the same reader failing on a file a user's script loads says nothing of a resume
    scripted = _frames(
        ("/workspace/tools/inspect.py", "main", "state = torch.load(path)"), *reader, last=last
    )
    assert "FLOW014" not in [f.rule for f in diagnose_text(scripted, _CATALOG).findings]


def test_hydras_wrapper_leaves_a_message_a_rule_knows_to_that_rule() -> None:
    # the config class's refusal is read as verl's config check only when no rule knows the
    # words it hands on (here a clue of CFG017's: a tokenizer that cannot be built from the folder)
    failed = (
        "Error executing job with overrides: ['critic.model.path=/models/phi3-tiny']\n"
        "Error in call to target 'verl.workers.config.model.HFModelConfig':\n"
        "ValueError(\"Couldn't instantiate the backend tokenizer from one of: \\n(1) a `tokenizers` library "
        "serialization file, \\n(2) a slow tokenizer instance to convert or \\n(3) an equivalent slow tokenizer "
        "class to instantiate and convert. \\nYou need to have sentencepiece or tiktoken installed to convert a "
        'slow tokenizer to a fast one.")\n'
        "full_key: critic.model\n"
    )
    assert [(f.rule, f.confidence) for f in diagnose_text(failed, _CATALOG).findings] == [
        ("CFG017", "medium")
    ]
    # words no rule knows are still the config class refusing
    unknown = failed.replace("Couldn't instantiate the backend tokenizer", "Cannot build the thing")
    assert [f.rule for f in diagnose_text(unknown, _CATALOG).findings] == ["CFG014"]


def test_the_kind_of_object_a_function_needs_is_no_setting() -> None:
    # verl's LoRA merge handed a module that is not FSDP-wrapped: the calling code's object
    log = _tb(
        "AssertionError: fsdp_merge_unmerge requires FSDP module, got version 0",
        f"{_SITE}/verl/utils/fsdp_utils.py",
        "fsdp_merge_unmerge",
    )
    assert diagnose_text(log, _CATALOG).findings == ()
    # a value shown without an object's kind, where verl reads its settings, is a setting verl refused
    shown = log.replace(
        "requires FSDP module, got version 0", "requires version 1 or 2, got version 0"
    ).replace("verl/utils/fsdp_utils.py", "verl/workers/fsdp_workers.py")
    assert [f.rule for f in diagnose_text(shown, _CATALOG).findings] == ["CFG014"]


def test_a_library_copy_verl_ships_is_that_librarys_code() -> None:
    from verl_doctor.engine.line_kinds import package_of

    vendored = f"{_SITE}/verl/third_party/vllm/vllm_v_0_6_3/llm.py"
    assert package_of(vendored) == "vllm"
    assert package_of(f"{_SITE}/verl/workers/rollout/vllm_rollout/vllm_rollout.py") == "verl"
    # a tokenizer object of the wrong class handed to it is the calling code's object, no setting
    log = _tb(
        "ValueError: Unexpected tokenizer type: <class 'transformers.models.qwen2_vl.processing_qwen2_vl."
        "Qwen2VLProcessor'>. Must be one of the following: PreTrainedTokenizer, PreTrainedTokenizerFast",
        vendored,
        "__init__",
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]


def test_a_model_folder_without_generation_config_fails_a_save_only_under_a_save_frame() -> None:
    # verl before 0.5 copies the model's generation_config.json into each checkpoint
    last = (
        "OSError: /data/sft_out/merged does not appear to have a file named generation_config.json. "
        "Checkout 'https://huggingface.co//data/sft_out/merged/tree/None' for available files."
    )
    hub = (f"{_SITE}/transformers/utils/hub.py", "cached_file", "raise EnvironmentError(")
    saving = _overrides("actor_rollout_ref.model.path=/data/sft_out/merged") + _frames(
        (
            "/opt/verl/verl/workers/fsdp_workers.py",
            "save_checkpoint",
            "self.checkpoint_manager.save_checkpoint(",
        ),
        (
            "/opt/verl/verl/utils/checkpoint/fsdp_checkpoint_manager.py",
            "save_checkpoint",
            "generation_config = GenerationConfig.from_pretrained(model_config.name_or_path)",
        ),
        hub,
        last=last,
    )
    first = diagnose_text(saving, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("FLOW012", "medium")
    assert "generation_config.json into every" in first.cause
    # the same file missing from a folder an evaluation script loads is that folder's content
    evaluating = _frames(
        ("/workspace/eval/run_eval.py", "main", "gen_cfg = GenerationConfig.from_pretrained(args.model)"),
        hub,
        last=last,
    )
    assert "FLOW012" not in [f.rule for f in diagnose_text(evaluating, _CATALOG).findings]


def test_a_gateway_answering_for_a_dead_server_leads_nothing(run_cli) -> None:
    """A 502 from the router in front of a reward-model server is a client that lost its server:
    the retries verl gave up on say the engine died, and they lead (the exception stays listed)."""
    log = (
        "(RewardLoopWorker pid=61842, ip=10.0.0.3) [Attempt 16/16] Request to http://10.0.0.3:37215/classify "
        "failed with HTTP 502: 502, message='Bad Gateway', url='http://10.0.0.3:37215/classify'. Retrying...\n"
        "(RewardLoopWorker pid=61842, ip=10.0.0.3) Max retries (16) reached for request to "
        "http://10.0.0.3:37215/classify.\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/experimental/reward_loop/reward_loop.py", line 191, in _post_request\n'
        "    raise last_exception\n"
        "aiohttp.client_exceptions.ClientResponseError: 502, message='Bad Gateway', "
        "url='http://10.0.0.3:37215/classify'\n"
    )
    result = run_cli(["explain", "--format", "json", "-"], stdin=log.encode())
    report = json.loads(result.stdout)
    assert [f["rule"] for f in report["findings"]] == ["FLOW013"]


def test_verls_own_check_of_how_a_sample_tokenized_is_no_setting() -> None:
    """A check function of verl's (`sanity_check`) speaks of settings, unless its words are about
    what a sample became (its input_ids, turn by turn) and name nothing a run sets."""
    log = _tb(
        "AssertionError: MultiTurnSFTDataset apply_chat_template to each turn separately and concat "
        "`input_ids` as a whole sequence, which may not equal to apply_chat_template to whole messages at once.",
        "/opt/verl/verl/utils/dataset/multiturn_sft_dataset.py",
        "sanity_check",
        "raise AssertionError(error_message)",
    )
    report = diagnose_text(log, _CATALOG)
    assert not report.findings and report.unrecognized


def test_a_warning_before_a_hang_is_not_promoted_when_an_exception_ended_the_log() -> None:
    """The barrier warning stands for the failure only when the log ends in a hang after it; an
    exception raised after it (one no rule knows) is the decisive line, the warning stays one."""
    log = (
        "(SFTTaskRunner pid=48213) [W714 10:02:11.127483 ProcessGroupNCCL.cpp:4561] Warning: using GPU 0 "
        "to perform barrier as devices used by this process are currently unknown.\n"
        "Traceback (most recent call last):\n"
        '  File "/workspace/launch/ray_sft.py", line 40, in run\n'
        "    trainer = FSDPSFTTrainer(config=config)\n"
        "ValueError: Apply Chat template from config is not supported yet.\n"
    )
    report = diagnose_text(log, _CATALOG)
    assert not report.findings
    assert [w.rule for w in report.warnings] == ["DIST006"]
    assert [u.exception for u in report.unrecognized] == ["ValueError"]


def test_a_users_code_building_a_librarys_object_is_told_about_its_own_arguments() -> None:
    """A reward function building transformers' GenerationConfig itself is refused a mode it
    asked for ("`do_sample` must be set to `False`"): the refusal is directed at that code's
    arguments, not at verl's option that shares the name, which the run did not set."""
    w = "(TaskRunner pid=77120) "
    log = (
        f"{w}Traceback (most recent call last):\n"
        f'{w}  File "/home/user/rl/rewards/judge.py", line 41, in compute_score\n'
        f"{w}    cfg = GenerationConfig(\n"
        f'{w}  File "/opt/venv/lib/python3.12/site-packages/transformers/generation/configuration_utils.py", '
        "line 463, in __init__\n"
        f"{w}    self.validate()\n"
        f'{w}  File "/opt/venv/lib/python3.12/site-packages/transformers/generation/configuration_utils.py", '
        "line 674, in validate\n"
        f'{w}    raise ValueError(group_error_prefix + "`do_sample` must be set to `False`")\n'
        f"{w}ValueError: `num_beam_groups` is not 1, triggering group beam search. In this generation mode, "
        "`do_sample` must be set to `False`\n"
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == []


def test_a_plain_word_written_with_the_value_the_run_gave_it_names_that_setting() -> None:
    """`When temperature=0, n_samples must be 1.`: `temperature` is a word as well as an option's
    last part; written with the value the run set (rollout.temperature=0) it is that setting."""
    tb = (
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/trainer/main_generation_server.py", line 132, in main\n'
        '    assert n_samples == 1, "When temperature=0, n_samples must be 1."\n'
        "AssertionError: When temperature=0, n_samples must be 1.\n"
    )
    command = "$ python3 -m verl.trainer.main_generation_server actor_rollout_ref.rollout.n=4 "
    found = diagnose_text(command + "actor_rollout_ref.rollout.temperature=0\n" + tb, _CATALOG).findings
    assert [f.rule for f in found] == ["CFG014"]
    assert "actor_rollout_ref.rollout.temperature" in (found[0].basis or "")
    # (the same word with another value than the run's is not read as its setting)
    found = diagnose_text(command + "actor_rollout_ref.rollout.temperature=0.7\n" + tb, _CATALOG).findings
    assert "actor_rollout_ref.rollout.temperature" not in " ".join(f.basis or "" for f in found)


def test_an_optimizer_refusing_a_hyperparameter_verl_passed_is_that_setting() -> None:
    """torch's optimizers check the lr, betas, eps and weight_decay verl builds them with from
    actor.optim; a refusal whose subject is the last part of a key the run set names that key."""
    built = (
        (
            "/opt/verl/verl/workers/fsdp_workers.py",
            "_build_model_optimizer",
            "actor_optimizer = optim.AdamW(",
        ),
        (f"{_SITE}/torch/optim/adamw.py", "__init__", "raise ValueError("),
    )
    last = "ValueError: betas must be either both floats or both Tensors"
    command = "python3 -m verl.trainer.main_ppo +actor_rollout_ref.actor.optim.betas=[0,0.99]\n"
    report = diagnose_text(command + _frames(*built, last=last), _CATALOG)
    assert [(f.rule, f.confidence) for f in report.findings] == [("CFG014", "medium")]
    assert "actor_rollout_ref.actor.optim.betas" in report.findings[0].basis
    # the same refusal to a script of the user's building its own optimizer is that script's
    script = (("/workspace/train.py", "main", "opt = torch.optim.AdamW(params, betas=(0, 0.99))"), built[1])
    assert not diagnose_text(_frames(*script, last=last), _CATALOG).findings


def test_transformers_refusing_the_models_own_code_is_that_code_written_for_another_release() -> None:
    remote = "/home/u/.cache/huggingface/modules/transformers_modules/ckpt/processing_custom_vl.py"
    frames = (
        (
            "/home/u/scripts/eval.py",
            "main",
            "processor = AutoProcessor.from_pretrained(path, trust_remote_code=True)",
        ),
        (
            f"{_SITE}/transformers/processing_utils.py",
            "from_args_and_dict",
            "processor = cls(*args, **kwargs)",
        ),
        (remote, "__init__", "ProcessorMixin.__init__(self, image_processor, tokenizer)"),
        (f"{_SITE}/transformers/processing_utils.py", "__init__", "raise ValueError("),
    )
    last = (
        "ValueError: This processor requires 3 arguments: image_processor, tokenizer, video_processor. "
        "Got 2 arguments instead."
    )
    report = diagnose_text(_frames(*frames, last=last), _CATALOG)
    assert [(f.rule, f.confidence) for f in report.findings] == [("ENV010", "medium")]
    assert "processing_custom_vl.py" in report.findings[0].cause
    # the same call from the user's own script is that script's doing
    script = (
        ("/home/u/scripts/eval.py", "main", "ProcessorMixin.__init__(p, image_processor, tokenizer)"),
        frames[3],
    )
    assert [f.rule for f in diagnose_text(_frames(*script, last=last), _CATALOG).findings] != ["ENV010"]


def test_a_gpu_gated_feature_the_run_chose_by_name_is_that_choice_a_default_stays_the_gpu() -> None:
    """SGLang refusing an attention backend on this GPU: chosen on the command line (spelt
    `trtllm_mha` there, `TRTLLM MHA` in the message) it is the setting to change (CFG014); not
    chosen by the run, the GPU is what decides (ENV007)."""
    raised = (
        (
            f"{_SITE}/sglang/srt/entrypoints/engine.py",
            "_launch_subprocesses",
            "server_args.check_server_args()",
        ),
        (f"{_SITE}/sglang/srt/server_args.py", "__post_init__", "raise ValueError("),
    )
    last = "ValueError: TRTLLM MHA backend is only supported on Blackwell GPUs (SM100). Please use a different backend."
    chosen = "python3 -m verl.trainer.main_ppo +actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=trtllm_mha\n"
    report = diagnose_text(chosen + _frames(*raised, last=last), _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG014"]
    assert "attention_backend" in report.findings[0].basis
    default = "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=sglang\n"
    assert [f.rule for f in diagnose_text(default + _frames(*raised, last=last), _CATALOG).findings] == [
        "ENV007"
    ]


def test_raise_not_implemented_called_is_read_as_the_refusal_it_meant() -> None:
    """`raise NotImplemented("...")` (a slip for NotImplementedError) fails as a TypeError; the
    statement Python printed holds the refusal, read as a library's settings check."""
    frames = (
        ("/opt/verl/verl/workers/megatron_workers.py", "_build_model_optimizer", "bridge.load_weights(m, p)"),
        (
            f"{_SITE}/mbridge/models/deepseek_v3.py",
            "_get_safetensor_io",
            'raise NotImplemented("only support bfloat16 for now")',
        ),
    )
    last = "TypeError: 'NotImplementedType' object is not callable"
    report = diagnose_text(_frames(*frames, last=last), _CATALOG)
    assert [(f.rule, f.confidence) for f in report.findings] == [("CFG014", "medium")]
    plain = (frames[0], (f"{_SITE}/mbridge/models/deepseek_v3.py", "_get_safetensor_io", "return fn(x)"))
    assert not diagnose_text(_frames(*plain, last=last), _CATALOG).findings


def test_a_bare_assert_in_a_function_validating_a_setting_is_that_setting() -> None:
    """verl's `_validate_profiler_interval` asserts an order on the interval it was given, with
    no message: a check of settings, not the trainer's validation step."""
    validating = (
        ("/opt/verl/verl/trainer/sft_trainer.py", "_build_config", "self._validate_profiler_interval()"),
        (
            "/opt/verl/verl/trainer/sft_trainer.py",
            "_validate_profiler_interval",
            "assert self.end_profile_step >= self.start_profile_step",
        ),
    )
    report = diagnose_text(_frames(*validating, last="AssertionError"), _CATALOG)
    assert [(f.rule, f.confidence) for f in report.findings] == [("CFG014", "medium")]
    assert report.findings[0].phase != "validation"


def test_the_trainers_validation_step_is_still_validation() -> None:
    from verl_doctor.engine.line_kinds import describe_phase

    assert describe_phase("RayPPOTrainer._validate") == "validation"
    assert describe_phase("_validate_config") != "validation"


def test_a_library_asking_for_at_least_a_torch_release_is_the_torch_release() -> None:
    built = (
        (
            "/opt/verl/verl/models/mcore/config_converter.py",
            "_get_base_transformer_config",
            "return TransformerConfig(",
        ),
        (
            f"{_SITE}/megatron/core/transformer/transformer_config.py",
            "__post_init__",
            "assert is_torch_min_version(",
        ),
    )
    last = "AssertionError: Must have at least torch version 2.7 or higher"
    report = diagnose_text(_frames(*built, last=last), _CATALOG)
    assert [f.rule for f in report.findings] == ["ENV013"]


def test_a_value_that_opens_the_refusal_of_its_kind_of_choice_is_that_setting() -> None:
    built = (
        (
            "/opt/verl/verl/utils/megatron/optimizer.py",
            "get_megatron_optimizer",
            "optimizer = get_megatron_optimizer(",
        ),
        (
            f"{_SITE}/megatron/core/optimizer/__init__.py",
            "_get_megatron_optimizer_based_on_param_groups",
            "raise Exception('{} optimizer is not supported.'.format(config.optimizer))",
        ),
    )
    report = diagnose_text(_frames(*built, last="Exception: AdamW optimizer is not supported."), _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG014"]
    # (a determiner is no value: `This mode is not supported` shows none)
    from verl_doctor.engine.fallbacks.wording import VALUE_SHOWN

    assert VALUE_SHOWN.search("This mode is not supported") is None


def test_megatrons_sizes_in_code_spelling_are_the_model_split() -> None:
    built = (
        (
            "/opt/verl/verl/models/mcore/config_converter.py",
            "hf_to_mcore_config_dense",
            "return TransformerConfig(",
        ),
        (f"{_SITE}/megatron/core/transformer/transformer_config.py", "__post_init__", "raise ValueError("),
    )
    last = (
        "ValueError: num_layers: 66 after enableaccount_for_embedding_in_pipeline_split or "
        "account_for_loss_in_pipeline_split must be divisibleby pipeline_model_parallel_size 4"
    )
    report = diagnose_text(_frames(*built, last=last), _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG010"]


def test_an_option_the_run_set_bounded_by_the_model_split_is_that_option() -> None:
    """`num_layers_at_start_in_bf16 (8) must be between 0 and number of layers per pipeline
    stage (7)`: the option the run set is refused; the split only bounds it. The same words about
    a number the model has, not a setting of the run, stay the split's."""
    built = (
        (
            "/opt/verl/verl/models/mcore/config_converter.py",
            "hf_to_mcore_config_dense",
            "return TransformerConfig(",
        ),
        (f"{_SITE}/megatron/core/transformer/transformer_config.py", "__post_init__", "raise ValueError("),
    )
    last = (
        "ValueError: num_layers_at_start_in_bf16 (8) must be between 0 and number of layers per "
        "pipeline stage (7)."
    )
    command = (
        "python3 -m verl.trainer.main_ppo actor_rollout_ref.actor.megatron.pipeline_model_parallel_size=4 "
        "+actor_rollout_ref.actor.megatron.override_transformer_config.num_layers_at_start_in_bf16=8\n"
    )
    report = diagnose_text(command + _frames(*built, last=last), _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG014"]
    report = diagnose_text(_frames(*built, last=last), _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG010"]


def test_a_row_field_of_another_type_subscripted_by_verl_is_the_data() -> None:
    """`reward_model` written as the bare answer: verl's reward manager subscripts it as a
    mapping, `string indices must be integers`. A subscript of what a function returned is no
    row of the data."""
    reading = (
        ("/work/check_reward.py", "<module>", "out = rm(data, return_dict=True)"),
        (
            "/opt/verl/verl/workers/reward_manager/naive.py",
            "__call__",
            'ground_truth = data_item.non_tensor_batch["reward_model"]["ground_truth"]',
        ),
    )
    last = "TypeError: string indices must be integers, not 'str'"
    report = diagnose_text(_frames(*reading, last=last), _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG012"]
    assert "string indices" in report.findings[0].cause
    returned = (reading[0], (reading[1][0], "__call__", 'score = result["score"]["value"]'))
    assert not [
        f for f in diagnose_text(_frames(*returned, last=last), _CATALOG).findings if f.rule == "CFG012"
    ]


def test_the_shape_of_a_traceback_whose_words_a_rule_knows_adds_nothing() -> None:
    """verl's loader of the custom reward function asserts the config names it: the rule that
    knows that assert answers, and the guess from the loader's frame (a file that cannot be
    imported) is not shown beside it."""
    loading = (
        ("/opt/verl/verl/trainer/main_eval.py", "process_item", "reward_fn = get_custom_reward_fn(config)"),
        ("/opt/verl/verl/trainer/ppo/reward.py", "get_custom_reward_fn", "assert fn_name is not None"),
    )
    report = diagnose_text(_frames(*loading, last="AssertionError"), _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG011"]
    # without the words, the loader's frame still says where to look
    unknown = (loading[0], (loading[1][0], "get_custom_reward_fn", "module = load_module(path)"))
    report = diagnose_text(_frames(*unknown, last="AssertionError"), _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG008"]


def test_a_choice_named_by_the_value_selected_is_that_setting() -> None:
    built = (
        (
            "/opt/verl/verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py",
            "__init__",
            "self.inference_engine = LLM(",
        ),
        (f"{_SITE}/vllm/platforms/rocm.py", "get_attn_backend_cls", "raise ValueError("),
    )
    last = "ValueError:  The selected backend, ROCM_FLASH,is not MLA type while requested for MLA backend."
    report = diagnose_text(_frames(*built, last=last), _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG014"]


def test_a_compiled_extensions_frame_is_no_users_code() -> None:
    """uvloop runs verl's coroutines from `uvloop/loop.pyx`, a path without a folder: no file of
    the user's called verl there, and verl's check of a setting is still that setting's."""
    running = (
        (
            "/opt/verl/verl/workers/rollout/sglang_rollout/sglang_rollout.py",
            "_req_level_generate_sequences",
            "output_req_list = loop.run_until_complete(",
        ),
        ("uvloop/loop.pyx", "uvloop.loop.Loop.run_until_complete", ""),
        (
            "/opt/verl/verl/workers/rollout/sglang_rollout/sglang_rollout.py",
            "_handle_pending_state",
            "raise ValueError(",
        ),
    )
    last = (
        "ValueError: Interaction 'gsm8k' not found in interaction_map. Available interactions: ['math_tutor']"
    )
    report = diagnose_text(_frames(*running, last=last), _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG014"]


def test_a_sample_without_its_chat_messages_is_the_data() -> None:
    building = (
        (
            "/opt/verl/verl/workers/rollout/sglang_rollout/sglang_rollout.py",
            "_preprocess_prompt_to_async_rollout_requests",
            "req = AsyncRolloutRequest(",
        ),
        (
            f"{_SITE}/pydantic/main.py",
            "__init__",
            "validated_self = self.__pydantic_validator__.validate_python(",
        ),
    )
    last = (
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for AsyncRolloutRequest\n"
        "  Value error, messages is required for AsyncRolloutRequest initialization [type=value_error]"
    )
    report = diagnose_text(_frames(*building, last=last), _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG012"]


def test_a_package_version_mismatch_a_library_reports_is_that_release() -> None:
    importing = (
        ("/opt/verl/verl/models/mcore/__init__.py", "<module>", "from megatron.core import parallel_state"),
        (
            f"{_SITE}/transformer_engine/common/__init__.py",
            "_check_version",
            "assert te_torch_version == te_version",
        ),
    )
    last = (
        "AssertionError: TransformerEngine package version mismatch. Found transformer_engine_torch v2.5.0, "
        "transformer-engine v2.4.0, and transformer-engine-cu12 v2.4.0. Install transformer-engine using "
        "'pip3 install transformer-engine[pytorch]==VERSION'"
    )
    report = diagnose_text(_frames(*importing, last=last), _CATALOG)
    assert [f.rule for f in report.findings] == ["ENV008"]


def test_a_module_refusing_the_state_a_checkpoint_saved_of_it_is_the_resume() -> None:
    """TransformerEngine restoring its extra state from the checkpoint a run resumes from: the
    checkpoint was written by another stack. Raised while saving, or about anything else, it
    is not."""
    loading = (
        (
            "/opt/verl/verl/utils/checkpoint/megatron_checkpoint_manager.py",
            "load_checkpoint",
            "self.model[vpp_rank].load_state_dict(model_state_dict)",
        ),
        (f"{_SITE}/megatron/core/transformer/module.py", "load_state_dict", "super().load_state_dict("),
        (
            f"{_SITE}/transformer_engine/pytorch/module/base.py",
            "set_extra_state",
            'raise RuntimeError("Unsupported checkpoint format.")',
        ),
    )
    report = diagnose_text(_frames(*loading, last="RuntimeError: Unsupported checkpoint format."), _CATALOG)
    assert [f.rule for f in report.findings] == ["FLOW014"]
    report = diagnose_text(
        _frames(*loading, last="RuntimeError: CUDA driver initialization failed"), _CATALOG
    )
    assert "FLOW014" not in [f.rule for f in report.findings]


def test_torch_putting_the_saved_state_into_the_model_while_resuming_is_the_resume() -> None:
    """Whatever raises under torch's load_state_dict while verl loads a checkpoint (a DTensor of
    the saved mesh meeting this run's, a dtype) is a checkpoint that does not fit the run: the
    resume. The machine failing there (CUDA) is not; nor is the same error outside a resume."""
    under_load_state_dict = (
        (f"{_SITE}/torch/nn/modules/module.py", "load_state_dict", "load(self, state_dict)"),
        (f"{_SITE}/torch/nn/modules/module.py", "_load_from_state_dict", "param.copy_(input_param)"),
        (f"{_SITE}/torch/distributed/tensor/_api.py", "__torch_dispatch__", "return DTensor._op_dispatcher"),
        (
            f"{_SITE}/torch/distributed/tensor/_redistribute.py",
            "redistribute_local_tensor",
            'raise NotImplementedError("Cross device mesh comm not supported yet!")',
        ),
    )
    loading = (
        (
            "/opt/verl/verl/trainer/ppo/ray_trainer.py",
            "_load_checkpoint",
            "self.actor_rollout_wg.load_checkpoint(",
        ),
        (
            "/opt/verl/verl/utils/checkpoint/fsdp_checkpoint_manager.py",
            "load_checkpoint",
            "self.model.load_state_dict(model_state_dict)",
        ),
        *under_load_state_dict,
    )
    last = "NotImplementedError: Cross device mesh comm not supported yet!"
    report = diagnose_text(_frames(*loading, last=last), _CATALOG)
    assert [f.rule for f in report.findings] == ["FLOW014"]
    machine = "RuntimeError: CUDA error: an illegal instruction was encountered"
    assert "FLOW014" not in [
        f.rule for f in diagnose_text(_frames(*loading, last=machine), _CATALOG).findings
    ]
    script = (("/home/me/convert.py", "main", "model.load_state_dict(sd)"), *under_load_state_dict)
    assert "FLOW014" not in [f.rule for f in diagnose_text(_frames(*script, last=last), _CATALOG).findings]


def test_transformers_refusing_to_save_the_models_generation_config_is_the_save() -> None:
    """GenerationConfig.save_pretrained validates strictly: under verl's save_checkpoint the save
    of the checkpoint failed on the model folder's generation_config.json (FLOW012, said so);
    the same refusal in a chained traceback above the save is not a setting of the run."""
    saving = (
        (
            "/opt/verl/verl/utils/checkpoint/fsdp_checkpoint_manager.py",
            "save_checkpoint",
            "model_config.generation_config.save_pretrained(hf_local_path)",
        ),
        (f"{_SITE}/transformers/generation/configuration_utils.py", "save_pretrained", "raise ValueError("),
    )
    last = (
        "ValueError: The generation config instance is invalid -- `.validate()` throws warnings "
        "and/or exceptions. Fix these issues to save the configuration."
    )
    report = diagnose_text(_frames(*saving, last=last), _CATALOG)
    assert [f.rule for f in report.findings] == ["FLOW012"]
    assert "generation config" in report.findings[0].cause
    validating = (
        (saving[1][0], "validate", 'raise ValueError("GenerationConfig is invalid: \\n" + info_message)'),
    )
    chained = (
        _frames(*validating, last="ValueError: GenerationConfig is invalid: ")
        + "\nDuring handling of the above exception, another exception occurred:\n\n"
        + _frames(
            saving[0],
            (saving[1][0], "save_pretrained", "raise ValueError(str(exc))"),
            last="ValueError: GenerationConfig is invalid: ",
        )
    )
    assert [f.rule for f in diagnose_text(chained, _CATALOG).findings] == ["FLOW012"]


def test_pythons_own_library_running_verls_code_is_no_users_code() -> None:
    """asyncio runs verl's reward loop (`/usr/lib/python3.10/asyncio/base_events.py`): no file of
    the user's called verl there, and verl refusing a backend it was set to is that setting."""
    envelope = (
        '  File "/opt/verl/verl/experimental/reward_loop/reward_loop.py", line 312, in compute_rm_score\n'
        "    outputs = ray.get(\n"
        "ray.exceptions.RayTaskError(ValueError): ray::RewardLoopWorker.compute_score_batch() "
        "(pid=189655, ip=10.233.71.20)\n"
        '  File "/usr/lib/python3.10/asyncio/base_events.py", line 649, in run_until_complete\n'
        "    return future.result()\n"
        '  File "/opt/verl/verl/experimental/reward_loop/reward_loop.py", line 137, in compute_score_batch\n'
        "    outputs = await asyncio.gather(*tasks)\n"
        '  File "/opt/verl/verl/experimental/reward_loop/reward_loop.py", line 250, in compute_score_disrm\n'
        '    raise ValueError("TensorRT-LLM backend does not support reward models currently.")\n'
        "ValueError: TensorRT-LLM backend does not support reward models currently.\n"
    )
    report = diagnose_text(envelope, _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG014"]


@pytest.mark.parametrize(
    ("path", "package"),
    [
        ("/vllm-workspace/vllm/vllm/config.py", "vllm"),
        ("/vllm-workspace/vllm-ascend/vllm_ascend/ascend_config.py", "vllm_ascend"),
        ("/home/u/sglang/python/sglang/srt/server_args.py", "sglang"),
        ("/home/u/Megatron-LM/megatron/core/parallel_state.py", "megatron"),
        ("/home/u/myproj/vllm/run.py", None),  # a folder of the user's named after it
    ],
)
def test_an_engine_installed_from_its_source_checkout_is_that_engine(path: str, package: str | None) -> None:
    from verl_doctor.engine.line_kinds import package_of

    assert package_of(path) == package


def test_the_npu_plugins_checking_their_settings_refuse_a_setting_their_stack_failing_is_the_npu() -> None:
    building = (
        ("/vllm-workspace/vllm/vllm/engine/arg_utils.py", "create_engine_config", "config = VllmConfig("),
        (
            "/vllm-workspace/vllm-ascend/vllm_ascend/ascend_config.py",
            "check_ascend_config",
            "raise RuntimeError(",
        ),
    )
    last = "RuntimeError: graph_batch_sizes_init is valid only when Torchair graph mode is enabled"
    assert [f.rule for f in diagnose_text(_frames(*building, last=last), _CATALOG).findings] == ["CFG014"]
    loading = (
        (
            "/vllm-workspace/vllm-ascend/vllm_ascend/distributed/device_communicators/pyhccl_wrapper.py",
            "__init__",
            "so_file = find_hccl_library()",
        ),
        (
            "/vllm-workspace/vllm-ascend/vllm_ascend/utils.py",
            "find_hccl_library",
            'raise ValueError("HCCL only supports Ascend NPU backends.")',
        ),
    )
    last = "ValueError: HCCL only supports Ascend NPU backends."
    assert [f.rule for f in diagnose_text(_frames(*loading, last=last), _CATALOG).findings] == ["ENV012"]


@pytest.mark.parametrize(
    "said",
    [
        "Value error, graph_batch_sizes_init is only valid when graph_batch_sizes is empty [type=value_error]",
        "Assertion failed, When enabling piecewise aclgraph, please make sure compilation_config.level == "
        "CompilationLevel.PIECEWISE [type=assertion_error]",
        "Assertion failed, oproj_tensor_parallel_size is only supported in graph mode [type=assertion_error]",
    ],
)
def test_an_engine_config_refusing_how_its_settings_combine_is_a_setting(said: str) -> None:
    building = (
        (
            "/opt/verl/verl/workers/rollout/vllm_rollout/vllm_async_server.py",
            "launch_server",
            "engine_args.create_engine_config()",
        ),
        (f"{_SITE}/vllm/engine/arg_utils.py", "create_engine_config", "config = VllmConfig("),
        (
            f"{_SITE}/pydantic/_internal/_dataclasses.py",
            "__init__",
            "s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)",
        ),
    )
    last = f"pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n  {said}"
    assert [f.rule for f in diagnose_text(_frames(*building, last=last), _CATALOG).findings] == ["CFG014"]


def test_megatrons_distributed_checkpoint_refusing_what_a_resume_reads_is_the_resume() -> None:
    """Megatron's dist_checkpointing merging the saved optimizer state with the run's
    (`Cannot merge two lists with different lengths`) while verl loads it: the checkpoint does not
    fit the run resuming from it (FLOW014)."""
    loading = (
        (
            "/opt/verl/verl/utils/megatron/dist_checkpointing.py",
            "load_dist_checkpointing",
            "state_dict = dist_checkpointing.load(sharded_state_dict, ckpt_dir, sharded_strategy=load_strategy)",
        ),
        (
            f"{_SITE}/megatron/core/dist_checkpointing/dict_utils.py",
            "merge",
            'raise ValueError(f"Cannot merge two lists with different lengths ({len(x1)} and {len(x2)}, "',
        ),
    )
    last = (
        "ValueError: Cannot merge two lists with different lengths (2 and 3, encountered at level "
        "('optimizer', 'optimizer', 'param_groups'))"
    )
    report = diagnose_text(_frames(*loading, last=last), _CATALOG)
    assert [f.rule for f in report.findings] == ["FLOW014"]


def test_a_registry_of_model_classes_refusing_the_model_names_no_setting() -> None:
    """verl's Megatron model registry or weight savers with no entry for the model's
    architecture refuse the model chosen, not a value of an option: no config code. The same
    registry check naming an option still points at it."""
    registry = (
        (
            "/opt/verl/verl/models/mcore/config_converter.py",
            "hf_to_mcore_config",
            "model = get_supported_model(",
        ),
        ("/opt/verl/verl/models/mcore/registry.py", "get_supported_model", "raise NotImplementedError("),
    )
    saver = (("/opt/verl/verl/models/weight_loader_registry.py", "get_weight_saver", "raise ValueError("),)
    for frames, last in (
        (
            registry,
            "NotImplementedError: Model Type: MistralForCausalLM not supported. Supported models: "
            "['LlamaForCausalLM', 'Qwen2ForCausalLM']",
        ),
        (registry, "ValueError: 'MistralForCausalLM' is not a valid SupportedModel"),
        (registry, "NotImplementedError: Llama4ForConditionalGeneration is not supported yet"),
        (
            saver,
            "ValueError: Model architectures Llama4ForConditionalGeneration saver are not supported for "
            "now. Supported architectures: dict_keys(['LlamaForCausalLM', 'Qwen2ForCausalLM'])",
        ),
    ):
        assert [f.rule for f in diagnose_text(_frames(*frames, last=last), _CATALOG).findings] == [], last
    # (mbridge without a bridge for a model type newer than its release: a later mbridge has it)
    bridge = ((f"{_SITE}/mbridge/core/auto_bridge.py", "from_config", "raise ValueError("),)
    last = "ValueError: Unregistered model type: gpt_oss, now only support dict_keys(['llama', 'qwen2'])"
    assert [f.rule for f in diagnose_text(_frames(*bridge, last=last), _CATALOG).findings] == ["ENV008"]
    last = (
        "NotImplementedError: Model Type: MistralForCausalLM not supported with "
        "actor_rollout_ref.actor.megatron.use_mbridge=False"
    )
    assert [f.rule for f in diagnose_text(_frames(*registry, last=last), _CATALOG).findings] == ["CFG014"]


def test_verls_tensordict_helpers_check_what_their_callers_hand_them() -> None:
    """verl's TensorDict helpers refusing the tensors a caller built (a user's script, a custom
    trainer) say nothing of a setting: no config code."""
    building = (
        (
            "/home/me/scripts/build_offline_batch.py",
            "main",
            "batch = tu.get_tensordict(tensors, non_tensors)",
        ),
        (
            f"{_SITE}/verl/utils/tensordict_utils.py",
            "get_tensordict",
            "assert val.batch_size[0] == batch_size, (",
        ),
    )
    last = (
        "AssertionError: Batch size of NonTensorStack raw_prompt is not consistent with other tensors. "
        "Expected 512, got 64"
    )
    assert [f.rule for f in diagnose_text(_frames(*building, last=last), _CATALOG).findings] == []


def test_two_switches_refused_together_are_a_setting() -> None:
    """megatron-core's schedule refusing two of its config's switches together (one set through
    verl's override_transformer_config) is a value the run set, wherever the check runs."""
    schedule = (
        (
            "/opt/verl/verl/workers/actor/megatron_actor.py",
            "forward_backward_batch",
            "losses_reduced = forward_backward_func(",
        ),
        (
            f"{_SITE}/megatron/core/pipeline_parallel/schedules.py",
            "forward_backward_pipelining_with_interleaving",
            'raise ValueError("Can not use both overlap_p2p_comm and batch_p2p_comm")',
        ),
    )
    last = "ValueError: Can not use both overlap_p2p_comm and batch_p2p_comm"
    assert [f.rule for f in diagnose_text(_frames(*schedule, last=last), _CATALOG).findings] == ["CFG014"]


def test_an_attribute_error_raised_on_purpose_is_a_check_like_any_other() -> None:
    """verl raising AttributeError in words of its own for a feature switched on that the model's
    config does not support refuses that feature's setting (CFG014, not a value left out); an
    attribute looked up in vain (`'X' object has no attribute 'y'`) stays no setting."""
    serving = (
        (
            "/opt/verl/verl/experimental/agent_loop/agent_loop.py",
            "generate",
            "output = await server.generate(",
        ),
        (
            "/opt/verl/verl/workers/rollout/sglang_rollout/async_sglang_server.py",
            "generate",
            "raise AttributeError(",
        ),
    )
    last = (
        "AttributeError: enable_rollout_routing_replay is set, but hf_config is missing 'num_hidden_layers' "
        "or 'num_experts_per_tok'. This feature requires an MoE model configuration that defines these attributes."
    )
    assert [f.rule for f in diagnose_text(_frames(*serving, last=last), _CATALOG).findings] == ["CFG014"]
    looked_up = (
        *serving[:1],
        (serving[1][0], "generate", "raise AttributeError(f\"'{name}' has no attribute\")"),
    )
    last = "AttributeError: 'Qwen2Config' object has no attribute 'num_experts_per_tok'"
    assert "CFG014" not in [f.rule for f in diagnose_text(_frames(*looked_up, last=last), _CATALOG).findings]


def test_too_few_samples_for_the_parts_a_batch_is_balanced_into_is_batch_arithmetic() -> None:
    """verl's sequence balancing given fewer samples than data-parallel ranks (a batch smaller than
    the DP size) is batch arithmetic (CFG004)."""
    balancing = (
        (
            "/opt/verl/verl/trainer/ppo/ray_trainer.py",
            "_balance_batch",
            "global_partition_lst = get_seqlen_balanced_partitions(",
        ),
        (
            "/opt/verl/verl/utils/seqlen_balancing.py",
            "get_seqlen_balanced_partitions",
            'assert len(seqlen_list) >= k_partitions, f"number of items:[{len(seqlen_list)}] < k_partitions:[{k_partitions}]"',
        ),
    )
    last = "AssertionError: number of items:[2] < k_partitions:[4]"
    assert [f.rule for f in diagnose_text(_frames(*balancing, last=last), _CATALOG).findings] == ["CFG004"]


def test_a_library_a_script_calls_through_asyncio_is_still_called_by_that_script() -> None:
    """Python's own library between a user's script and the library it calls (asyncio running
    the engine's coroutine) passes the call on: the request the script built, refused by the
    engine, is the script's doing, with or without those frames."""
    script = (
        "/data/me/vlm_eval/gen_blink.py",
        "main",
        "outs = llm.generate(prompt=prompts, image_data=images)",
    )
    engine = (
        f"{_SITE}/sglang/srt/entrypoints/engine.py",
        "generate",
        "ret = loop.run_until_complete(generator.__anext__())",
    )
    through = ("/usr/lib/python3.10/asyncio/base_events.py", "run_until_complete", "return future.result()")
    refusing = (
        (
            f"{_SITE}/sglang/srt/managers/tokenizer_manager.py",
            "generate_request",
            "obj.normalize_batch_and_arguments()",
        ),
        (f"{_SITE}/sglang/srt/managers/io_struct.py", "_normalize_image_data", "raise ValueError("),
    )
    last = "ValueError: The length of image_data should be equal to the batch size."
    for frames in ((script, engine, *refusing), (script, engine, through, *refusing)):
        assert [f.rule for f in diagnose_text(_frames(*frames, last=last), _CATALOG).findings] == [], len(
            frames
        )


def test_a_missing_generation_config_pasted_alone_is_the_checkpoint_save_of_older_verl() -> None:
    """transformers finding no generation_config.json, pasted alone, is most likely verl's
    checkpoint save (before 0.5 it reads the file there without a fallback): FLOW012, at medium
    confidence. Under a frame loading the model it stays the model folder's content."""
    bare = "OSError: /workspace/model does not appear to have a file named generation_config.json.\n"
    found = diagnose_text(bare, _CATALOG).findings
    assert [(f.rule, f.confidence) for f in found] == [("FLOW012", "medium")]
    loading = (
        (
            "/opt/verl/verl/workers/fsdp_workers.py",
            "_build_model_optimizer",
            "self.generation_config = get_generation_config(",
        ),
        (
            f"{_SITE}/transformers/generation/configuration_utils.py",
            "from_pretrained",
            "raise EnvironmentError(",
        ),
    )
    assert "FLOW012" not in [
        f.rule for f in diagnose_text(_frames(*loading, last=bare.strip()), _CATALOG).findings
    ]


def test_a_model_split_a_model_provider_refuses_is_the_parallel_layout() -> None:
    """Megatron-Bridge's providers refusing a split for a model family, in their words (`Virtual
    pipeline model parallelism is temporarily unsupported in FalconH1 models`, `Context parallelism
    is only supported by TEDotProductAttention!`), refuse the parallel layout (CFG010)."""
    providing = (
        (
            f"{_SITE}/megatron/bridge/models/model_provider.py",
            "_create_model",
            "model = self.provide(pre_process=pre_process)",
        ),
        (f"{_SITE}/megatron/bridge/models/falcon_h1/falconh1_provider.py", "provide", "assert ("),
    )
    for last in (
        "AssertionError: Virtual pipeline model parallelism is temporarily unsupported in FalconH1 models",
        "AssertionError: Context parallelism is only supported by TEDotProductAttention!",
    ):
        assert [f.rule for f in diagnose_text(_frames(*providing, last=last), _CATALOG).findings] == [
            "CFG010"
        ], last


def test_a_name_inside_a_dict_the_run_set_that_verl_set_attribute_by_attribute_is_that_setting() -> None:
    """verl's update_model_config setting a dict the run gave whole (`override_config.rope_scaling=
    {rope_type: yarn, ...}`) key by key on the model config's own dict: `'dict' object has no
    attribute 'rope_type'` names a key of that setting (CFG014). The same words with no such
    setting stay an attribute looked up in vain."""
    updating = (
        (
            "/opt/verl/verl/workers/config/model.py",
            "__post_init__",
            "update_model_config(self.hf_config, override_config_kwargs=override_config_kwargs)",
        ),
        ("/opt/verl/verl/utils/model.py", "update_model_config", "setattr(module_config, key, val)"),
    )
    last = "AttributeError: 'dict' object has no attribute 'rope_type'"
    setting = _overrides(
        "+actor_rollout_ref.model.override_config.rope_scaling={rope_type:yarn,factor:4.0}",
        "data.train_batch_size=8",
    )
    assert [f.rule for f in diagnose_text(setting + _frames(*updating, last=last), _CATALOG).findings] == [
        "CFG014"
    ]
    assert "CFG014" not in [f.rule for f in diagnose_text(_frames(*updating, last=last), _CATALOG).findings]


def test_a_saved_optimizer_state_of_another_shape_while_resuming_is_the_resume() -> None:
    """torch refusing a saved optimizer state whose shape differs from the parameter's (a model
    resized since the save), inside the code that loads the checkpoint: the resume failed."""
    log = _frames(
        (
            "/home/me/sft/trainer.py",
            "load_checkpoint",
            "osd = FSDP.optim_state_dict_to_load(model, optim, full_osd)",
        ),
        (
            f"{_SITE}/torch/distributed/fsdp/_optim_utils.py",
            "_flatten_tensor_optim_state",
            "raise ValueError(",
        ),
        last="ValueError: Tensor optimizer state does not have same shape as its parameter: "
        "torch.Size([151936, 1536]) torch.Size([151672, 1536])",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["FLOW014"]


def test_tensorrt_llms_own_refusal_of_a_setting_is_a_config_value() -> None:
    """TensorRT-LLM, verl's third rollout engine, checks the engine settings verl hands it like
    vLLM and SGLang do: its refusal is a setting's value."""
    log = _frames(
        (
            "/opt/verl/verl/workers/rollout/trtllm_rollout/trtllm_async_server.py",
            "launch_server",
            "self.llm = LLM(",
        ),
        (
            f"{_SITE}/tensorrt_llm/_torch/pyexecutor/py_executor_creator.py",
            "create_py_executor",
            "raise NotImplementedError(",
        ),
        last="NotImplementedError: KV connector is only supported with guaranteed no evict scheduler policy.",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["CFG014"]


def test_nvmls_own_library_missing_is_that_library_not_a_gpu_unseen() -> None:
    """`Failed to initialize NVML: NVML Shared Library Not Found`: the driver's library cannot be
    loaded (ENV015); the statement that formats the message (`{e}`) is no message of its own."""
    log = _frames(
        (
            "/opt/verl/verl/workers/rollout/trtllm_rollout/trtllm_rollout.py",
            "get_device_uuid",
            "pynvml.nvmlInit()",
        ),
        (f"{_SITE}/pynvml.py", "_LoadNvmlLibrary", "raise NVMLError(ret)"),
        last="pynvml.NVMLError_LibraryNotFound: NVML Shared Library Not Found",
    )
    log += _CAUSED + _frames(
        (
            "/opt/verl/verl/workers/rollout/trtllm_rollout/trtllm_rollout.py",
            "get_device_uuid",
            'raise RuntimeError(f"Failed to initialize NVML: {e}") from e',
        ),
        last="RuntimeError: Failed to initialize NVML: NVML Shared Library Not Found",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["ENV015"]


def test_a_refusal_that_blames_the_data_is_no_setting_even_when_it_names_one_the_run_set() -> None:
    """verl's dynamic sampling giving up names the limit the run set, but says the data are too
    hard: the rows, not the value of `max_num_gen_batches`."""
    log = (
        "Error executing job with overrides: ['algorithm.filter_groups.enable=True', "
        "'algorithm.filter_groups.max_num_gen_batches=10']\n"
    ) + _frames(
        ("/opt/verl/recipe/dapo/dapo_ray_trainer.py", "fit", "raise ValueError("),
        last="ValueError: num_gen_batches=10 >= max_num_gen_batches=10. Generated too many. Please check "
        "if your data are too difficult. You could also try set max_num_gen_batches=0 to enable endless trials.",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == []


@pytest.mark.parametrize(
    ("caller", "code"),
    [
        (
            (
                "/opt/verl/verl/workers/config/model.py",
                "__post_init__",
                "self.local_path = copy_to_local(self.path)",
            ),
            "CFG017",
        ),
        (
            (
                "/opt/verl/verl/utils/dataset/rl_dataset.py",
                "_download",
                "self.data_files[i] = copy_to_local(src=parquet_file, cache_dir=self.cache_dir)",
            ),
            "CFG013",
        ),
    ],
)
def test_an_empty_path_is_told_by_the_setting_it_was_given_for(
    caller: tuple[str, str, str], code: str
) -> None:
    """copy_to_local reads an empty path's last character first: which path was empty (the model's,
    a data file's) says what to fix, and the looser reading of the same lines is not shown too."""
    log = _frames(
        caller,
        (
            "/opt/verl/verl/utils/fs.py",
            "copy_to_local",
            "local_path = copy_local_path_from_hdfs(src, cache_dir)",
        ),
        (
            "/opt/verl/verl/utils/fs.py",
            "copy_local_path_from_hdfs",
            'assert src[-1] != "/", f"Make sure the last char in src is not / because it will cause error. Got {src}"',
        ),
        last="IndexError: string index out of range",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == [code]


def test_a_shape_mismatch_of_mrope_positions_is_image_tokens_not_a_transformers_release() -> None:
    """verl's get_rope_index placing more positions than the attention mask keeps: the image
    tokens and the image grid disagree (FLOW005), not a layout verl's patch missed."""
    log = _frames(
        (
            "/opt/verl/verl/models/transformers/qwen2_vl.py",
            "get_rope_index",
            "position_ids[..., attention_mask == 1] = llm_positions",
        ),
        last="RuntimeError: shape mismatch: value tensor of shape [3, 19963] cannot be broadcast to indexing "
        "result of shape [3, 16467]",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["FLOW005"]


def test_attention_backends_that_all_refuse_the_kv_cache_dtype_refuse_a_setting_not_the_gpu() -> None:
    """vLLM's selector lists each backend's reasons: the one every backend gives decides. All
    refuse the KV-cache dtype, only some the GPU: the setting's value (CFG014); all refuse the GPU:
    the card (ENV007)."""

    def log(reasons: str) -> str:
        return _frames(
            (f"{_SITE}/vllm/platforms/cuda.py", "get_attn_backend_cls", "raise ValueError("),
            last="ValueError: No valid attention backend found for cuda with AttentionSelectorConfig(head_size=576, "
            f"kv_cache_dtype=fp8_e5m2, use_mla=True). Reasons: {{{reasons}}}.",
            prefix="(vLLMHttpServer pid=2211) ",
        )

    by_dtype = "FLASHMLA: [kv_cache_dtype not supported, compute capability not supported], TRITON_MLA: [kv_cache_dtype not supported]"
    by_card = "FLASHMLA: [compute capability not supported], FLASH_ATTN_MLA: [kv_cache_dtype not supported, compute capability not supported]"
    assert [f.rule for f in diagnose_text(log(by_dtype), _CATALOG).findings] == ["CFG014"]
    assert [f.rule for f in diagnose_text(log(by_card), _CATALOG).findings] == ["ENV007"]


def test_pip_refusing_verl_beside_an_engine_release_it_excludes_is_the_engine_version() -> None:
    """pip asked for verl's extra and a vLLM release its pins exclude: the engine release is the
    answer, and the resolver's own failure line below it is part of it."""
    log = (
        "ERROR: Cannot install verl[vllm]==0.5.0 and vllm==0.10.1.1 because these package versions have "
        "conflicting dependencies.\n\nThe conflict is caused by:\n    The user requested vllm==0.10.1.1\n"
        '    verl[vllm] 0.5.0 depends on vllm<=0.8.5 and >=0.7.3; extra == "vllm"\n\n'
        "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/"
        "#dealing-with-dependency-conflicts\n"
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["ENV004"]


@pytest.mark.parametrize(
    "line",
    [
        "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).",
        "RuntimeError: DataLoader worker (pid 5123) is killed by signal: Bus error. It is possible that "
        "dataloader's workers are out of shared memory. Please try to raise your shared memory limit.",
        "RuntimeError: unable to write to file </torch_4471_2201983114_0>: No space left on device (28)",
    ],
)
def test_shared_memory_too_small_is_the_hosts_memory_not_a_crash_or_a_checkpoint(line: str) -> None:
    """torch blaming /dev/shm for a worker's bus error, or failing to write a tensor's shared
    memory file: the container's shared memory (DIST005), not a native crash or a checkpoint."""
    findings = diagnose_text(f"(TaskRunner pid=4410) {line}\n", _CATALOG).findings
    assert [f.rule for f in findings] == ["DIST005"]
    assert "/dev/shm" in findings[0].cause


def test_a_full_disk_is_a_checkpoint_only_where_a_checkpoint_is_written() -> None:
    """`No space left on device` says a disk is full, not what was written: a checkpoint when the
    frames are verl's checkpoint code, nothing known when Hydra writes its output folder."""
    full = "OSError: [Errno 28] No space left on device"
    saving = _frames(
        (
            "/opt/verl/verl/utils/checkpoint/fsdp_checkpoint_manager.py",
            "save_checkpoint",
            "torch.save(state, path)",
        ),
        (f"{_SITE}/torch/serialization.py", "save", "with _open_zipfile_writer(f) as opened_zipfile:"),
        last=full,
    )
    hydra = _frames(
        (f"{_SITE}/hydra/core/utils.py", "_save_config", "file.write(OmegaConf.to_yaml(cfg))"), last=full
    )
    assert [f.rule for f in diagnose_text(saving, _CATALOG).findings] == ["FLOW012"]
    assert [f.rule for f in diagnose_text(hydra, _CATALOG).findings] == []


def test_a_refusal_naming_an_option_the_run_set_in_words_is_that_setting() -> None:
    """SGLang's checks write option names in words (`Tokenizer worker num must >= 1` for
    `tokenizer_worker_num`): the run set that option, so its value is refused."""
    log = (
        "Error executing job with overrides: "
        "['+actor_rollout_ref.rollout.engine_kwargs.sglang.tokenizer_worker_num=0']\n"
    ) + _frames(
        (f"{_SITE}/sglang/srt/server_args.py", "__post_init__", "self._handle_other_validations()"),
        (
            f"{_SITE}/sglang/srt/server_args.py",
            "_handle_other_validations",
            "assert self.tokenizer_worker_num >= 1",
        ),
        last="AssertionError: Tokenizer worker num must >= 1",
    )
    findings = diagnose_text(log, _CATALOG).findings
    assert [f.rule for f in findings] == ["CFG014"]
    assert "tokenizer_worker_num" in findings[0].basis


def test_a_ray_wrapper_yields_to_the_known_exception_it_wraps() -> None:
    """`RayTaskError(RuntimeError): ray::WorkerDict.actor_rollout_save_checkpoint()` names only the
    method that raised; the gloo timeout it wraps, printed below it, is what failed."""
    log = (
        "ray.exceptions.RayTaskError(RuntimeError): ray::WorkerDict.actor_rollout_save_checkpoint() "
        "(pid=1655, ip=10.52.6.13, actor_id=e41b9c07, repr=<verl.single_controller.ray.base.WorkerDict object>)\n"
    ) + _frames(
        (
            "/opt/verl/verl/utils/checkpoint/fsdp_checkpoint_manager.py",
            "save_checkpoint",
            "torch.distributed.barrier()",
        ),
        (f"{_SITE}/torch/distributed/distributed_c10d.py", "barrier", "work.wait()"),
        last="RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting "
        "600000ms for recv operation to complete",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["FLOW002"]
    cut = log.split("Traceback")[0]  # the wrapper alone still says the save failed
    assert [f.rule for f in diagnose_text(cut, _CATALOG).findings] == ["FLOW012"]
    # ... and so does a wrapper of another exception, with a known timeout of another rank after it
    other = (
        cut.replace("RayTaskError(RuntimeError)", "RayTaskError(AssertionError)")
        + "AssertionError: (False, True, ShardedTensor(key='optimizer.state.exp_avg'))\n"
        "[rank3]:[E728 21:47:09.903115623 ProcessGroupNCCL.cpp:629] [Rank 3] Watchdog caught collective "
        "operation timeout: WorkNCCL(SeqNum=48213, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600010 "
        "milliseconds before timing out.\n"
    )
    assert [f.rule for f in diagnose_text(other, _CATALOG).findings][:1] == ["FLOW012"]


def test_an_options_words_in_code_that_checks_no_setting_are_not_that_option() -> None:
    """torch's checkpointing saying `selective activation checkpoint` describes its mechanism; the
    run's `activation_checkpoint` setting is not what it refuses."""
    log = (
        "Error executing job with overrides: ['actor_rollout_ref.actor.torchtitan.activation_checkpoint=selective']\n"
    ) + _frames(
        (f"{_SITE}/torch/utils/checkpoint.py", "get_val", "raise RuntimeError("),
        last="RuntimeError: Tensor cached during selective activation checkpoint has been mutated",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == []


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/home/me/data/gsm8k", "CFG014"),  # a folder where a file goes
        ("/home/me/data/gsm8k/", "CFG014"),
        ("/home/me/data/train.csv", "CFG014"),  # a format verl does not read
        ("/home/me/data/train.parqeut", "CFG013"),  # a file name misspelt: no such file
    ],
)
def test_an_unsupported_data_file_format_is_told_by_the_path(path: str, code: str) -> None:
    log = _frames(
        (
            "/opt/verl/verl/utils/dataset/rl_dataset.py",
            "_read_files_and_tokenize",
            'raise ValueError(f"...")',
        ),
        last=f"ValueError: Unsupported file format: {path}",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == [code]


def test_a_class_handed_over_as_the_subject_of_a_refusal_is_code_not_a_setting() -> None:
    """`<class 'rm_bench.configs.JudgeConfig'> must be a dataclass`: a user's script called verl's
    helper with a class of its own; no setting of the run is refused."""
    log = _frames(
        (
            "/home/me/eval/offline_judge.py",
            "main",
            "cfg = omega_conf_to_dataclass(cfg.judge, dataclass_type=JudgeConfig)",
        ),
        (
            "/opt/verl/verl/utils/config.py",
            "omega_conf_to_dataclass",
            'raise ValueError(f"{dataclass_type} must be a dataclass")',
        ),
        last="ValueError: <class 'rm_bench.configs.JudgeConfig'> must be a dataclass",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == []


def test_megatrons_argument_validation_reached_through_mindspeed_is_a_setting() -> None:
    """verl's mindspeed engine validates its Megatron arguments with Megatron's validate_args,
    through MindSpeed's wrapper (both installed from their checkouts): what it refuses, in any
    words, is a setting of the run, not the caller's code."""
    log = _frames(
        ("/home/me/verl/verl/workers/engine/mindspeed/utils.py", "set_global_config", "validate_args(args)"),
        ("/home/me/MindSpeed/mindspeed/arguments.py", "wrapper", "args = validate_args(args, defaults)"),
        (
            "/home/me/Megatron-LM/megatron/training/arguments.py",
            "validate_args",
            "assert args.recompute_method is not None, \\",
        ),
        last="AssertionError: for distributed recompute activations to work you need to use a recompute method",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["CFG014"]


def test_a_name_gone_from_pythons_own_module_is_the_calling_package_too_old_for_this_python() -> None:
    """Python 3.12 removed pkgutil.ImpImporter: an old setuptools' pkg_resources reaching for it
    was written for another Python (ENV013 on that package), not a module of the user's."""
    log = _frames(
        (f"{_SITE}/tensorboard/compat/__init__.py", "<module>", "import pkg_resources"),
        (
            f"{_SITE}/pkg_resources/__init__.py",
            "<module>",
            "register_finder(pkgutil.ImpImporter, find_on_path)",
        ),
        last="AttributeError: module 'pkgutil' has no attribute 'ImpImporter'. Did you mean: 'zipimporter'?",
    )
    findings = diagnose_text(log, _CATALOG).findings
    assert [f.rule for f in findings] == ["ENV013"]
    assert "setuptools" in findings[0].cause


def test_a_resource_pool_of_no_nodes_indexed_is_the_node_count_the_run_gave() -> None:
    """`trainer.nnodes=-1` gets past the GPU check and makes a resource pool with no nodes; verl
    then reads its first node (`resource_pool.store[0]`): that count's value (CFG014)."""
    log = "Error executing job with overrides: ['trainer.nnodes=-1']\n" + _frames(
        (
            "/opt/verl/verl/single_controller/ray/base.py",
            "_init_with_resource_pool",
            "local_world_size = resource_pool.store[0]",
        ),
        last="IndexError: list index out of range",
    )
    findings = diagnose_text(log, _CATALOG).findings
    assert [f.rule for f in findings] == ["CFG014"]
    assert "trainer.nnodes" in findings[0].basis


def test_a_refusal_that_says_to_edit_the_models_config_json_names_no_setting_of_the_run() -> None:
    """verl's Megatron converter refusing DeepSeek-V3's multi-token-prediction layers asks for an
    edit of the model's config.json: a field of the model's files, neither a value the run set
    nor a folder that is no model. The same words telling the user to set an option still are."""
    converter = "/opt/verl/verl/models/mcore/config_converter.py"
    text = _tb(
        "AssertionError: MTP is not supported for now, please modify the config.json to set "
        "num_nextn_predict_layers to 0",
        path=converter,
        func="hf_to_mcore_config_dpskv3",
    )
    report = diagnose_text(text, _CATALOG)
    assert report.findings == ()
    assert [u.exception for u in report.unrecognized] == ["AssertionError"]
    text = _tb(
        "AssertionError: Sequence packing is not supported for now, please set use_remove_padding to False",
        path=converter,
        func="hf_to_mcore_config_dpskv3",
    )
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings] == ["CFG014"]


def test_a_module_the_chat_scheduler_imports_by_its_setting_is_that_setting_not_a_package() -> None:
    """verl 0.4/0.5 import multi_turn.completion_callback's module while they build the chat
    scheduler: a module no known package provides is the name that setting gave."""
    site = "/opt/conda/lib/python3.10/site-packages"
    log = (
        "(TaskRunner pid=87630) ERROR:2025-07-20 13:05:11,442:chat_scheduler init error: No module named "
        "'agent_callbacks'\n"
        "(TaskRunner pid=87630) Traceback (most recent call last):\n"
        f'(TaskRunner pid=87630)   File "{site}/verl/workers/rollout/async_server.py", line 170, in '
        "_init_chat_scheduler\n"
        "(TaskRunner pid=87630)     self.chat_scheduler = ChatCompletionScheduler(\n"
        f'(TaskRunner pid=87630)   File "{site}/verl/workers/rollout/chat_scheduler.py", line 282, in __init__\n'
        "(TaskRunner pid=87630)     module = importlib.import_module(module_path)\n"
        '(TaskRunner pid=87630)   File "/opt/conda/lib/python3.10/importlib/__init__.py", line 126, in '
        "import_module\n"
        "(TaskRunner pid=87630)     return _bootstrap._gcd_import(name[level:], package, level)\n"
        "(TaskRunner pid=87630) ModuleNotFoundError: No module named 'agent_callbacks'\n"
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG008"


@pytest.mark.parametrize(
    ("last", "path", "func"),
    [
        # the model's config.json names an activation the engine's layers do not build
        (
            "ValueError: Activation function 'swish' is not supported.",
            f"{_SITE}/vllm/model_executor/layers/activation.py",
            "get_act_fn",
        ),
        # the model's heads, as its config.json gives them
        (
            "AssertionError: num_heads (28) is not divisible by num_kv_heads (8)",
            f"{_SITE}/vllm/attention/layer.py",
            "__init__",
        ),
        # a request's image given as a plain path: what the sample holds
        (
            "ValueError: The URL must be either a HTTP, data or file URL.",
            f"{_SITE}/vllm/multimodal/utils.py",
            "load_from_url_async",
        ),
        # the model's head size, which the attention back-end has no kernel for
        (
            "ValueError: Head size 80 is not supported by FlashAttention. Supported head sizes are: "
            "[32, 64, 96, 128, 160, 192, 224, 256].",
            f"{_SITE}/vllm/v1/attention/backends/flash_attn.py",
            "validate_head_size",
        ),
    ],
)
def test_the_engines_layers_refusing_what_the_model_is_name_no_setting(
    last: str, path: str, func: str
) -> None:
    """The rollout engine's layers and attention back-ends judge the model and the batch, its
    multimodal code a request's content: a refusal there that names no setting of the run is not
    called an invalid config value."""
    report = diagnose_text(_tb(last, path, func, "raise ValueError(msg)"), _CATALOG)
    assert [f.rule for f in report.findings if f.rule == "CFG014"] == []
    assert report.unrecognized


def test_the_engines_layers_naming_a_setting_still_refuse_that_setting() -> None:
    last = "AssertionError: AITER MLA requires max model len to be set to 32768"
    path = f"{_SITE}/vllm/attention/backends/rocm_aiter_mla.py"
    assert diagnose_text(_tb(last, path, "__init__"), _CATALOG).findings[0].rule == "CFG014"


def test_the_engines_layers_refusing_a_feature_a_setting_switched_on_refuse_that_setting() -> None:
    """SGLang's logits processor refusing full logits under dp attention (enable_dp_attention,
    an engine argument verl passes): the feature's setting is the value refused."""
    last = "AssertionError: dp attention + sharded lm_head doesn't support full logits"
    path = f"{_SITE}/sglang/srt/layers/logits_processor.py"
    assert diagnose_text(_tb(last, path, "forward"), _CATALOG).findings[0].rule == "CFG014"
    # (a precision, which rollout.dtype chooses)
    last = "AssertionError: hidden_states must be bfloat16"
    path = f"{_SITE}/sglang/srt/layers/moe/fused_moe_triton/triton_kernels_moe.py"
    assert (
        diagnose_text(_tb(last, path, "triton_kernel_fused_experts_with_bias"), _CATALOG).findings[0].rule
        == "CFG014"
    )
    # (the fp8 KV cache that kv_cache_dtype switches on, in words that say `not yet supported`)
    last = "NotImplementedError: TritonMLA V1 with FP8 KV cache not yet supported"
    path = f"{_SITE}/vllm/v1/attention/backends/mla/triton_mla.py"
    assert diagnose_text(_tb(last, path, "__init__"), _CATALOG).findings[0].rule == "CFG014"


def test_an_operator_refusing_a_settings_type_names_the_setting_its_line_reads() -> None:
    """`data.max_prompt_length=1024*2` stays a string; verl's filter compares it with a length
    (`lambda doc: doc2len(doc) <= self.max_prompt_length`): the line Python printed names the
    setting, though it is no assert. Comparing two values of a sample names none."""
    last = "TypeError: '<=' not supported between instances of 'int' and 'str'"
    path = "/opt/verl/verl/utils/dataset/rl_dataset.py"
    text = _tb(last, path, "<lambda>", "lambda doc: doc2len(doc) <= self.max_prompt_length,")
    first = diagnose_text(text, _CATALOG).findings[0]
    assert first.rule == "CFG014" and "data.max_prompt_length" in first.basis
    text = _tb(last, path, "<lambda>", "lambda doc: doc['score'] <= doc['threshold'],")
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings if f.rule == "CFG014"] == []


@pytest.mark.parametrize(
    ("path", "func", "message"),
    [
        # a tokenizer's own arguments, set by the code that builds it
        (
            f"{_SITE}/transformers/tokenization_utils_base.py",
            "__init__",
            "ValueError: Padding side should be selected between 'right' and 'left', current value: Left",
        ),
        # a cache's layout, chosen by the code that generates
        (
            f"{_SITE}/transformers/cache_utils.py",
            "__init__",
            "ValueError: Setting `cache_implementation` to 'sliding_window' requires the model config supporting "
            "sliding window attention, please check if there is a `sliding_window` field in the model config and "
            "it's not set to None.",
        ),
        # an image processor's sizes, from the model folder's preprocessor config
        (
            f"{_SITE}/transformers/image_processing_utils.py",
            "center_crop",
            "ValueError: The size dictionary must have keys 'height' and 'width'. Got dict_keys(['shortest_edge'])",
        ),
        # a quantizer judging where a checkpoint is placed
        (
            f"{_SITE}/transformers/quantizers/quantizer_higgs.py",
            "validate_environment",
            "ValueError: You are attempting to load a HIGGS model with a device_map that contains a CPU or disk "
            "device. This is not supported. Please remove the CPU or disk device from the device_map.",
        ),
    ],
)
def test_transformers_checks_no_setting_of_the_run_outside_what_verl_hands_it(
    path: str, func: str, message: str
) -> None:
    """verl hands transformers the model's config (override_config), the attention implementation,
    the dtype and a generation config; transformers refusing its tokenizer's, cache's, processor's
    or quantizer's arguments judges what the calling code or the model folder gave it."""
    assert "CFG014" not in [f.rule for f in diagnose_text(_tb(message, path, func), _CATALOG).findings]


@pytest.mark.parametrize(
    ("path", "func", "message"),
    [
        (
            f"{_SITE}/transformers/modeling_utils.py",
            "__init__",
            "KeyError: '`sdpa2` is not a valid attention implementation registered in the `AttentionInterface`'",
        ),
        (
            f"{_SITE}/transformers/integrations/tensor_parallel.py",
            "_prepare_output_fn",
            "ValueError: The number of experts must be divisible by number of ep_size: 32 % 6 != 0",
        ),
    ],
)
def test_transformers_checking_what_verl_hands_it_checks_a_setting(
    path: str, func: str, message: str
) -> None:
    first = diagnose_text(_tb(message, path, func), _CATALOG).findings[0]
    assert first.rule in ("CFG014", "CFG010")


def test_a_range_written_around_the_word_version_names_the_package_to_install() -> None:
    log = _tb(
        "ValueError: Kernels are not available. Please install a compatible version (0.19.1 <= version < "
        "0.20.0), e.g. `pip install kernels==0.19.1`",
        f"{_SITE}/transformers/modeling_utils.py",
        "set_use_kernels",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert first.rule in ("ENV009", "ENV013")
    assert "kernels" in first.basis and "version version" not in first.basis


def test_an_engines_tracing_exporter_refusing_its_protocol_is_no_setting_of_the_run() -> None:
    """vLLM's OpenTelemetry exporter is set up by the engine's environment, not by a setting verl
    passes: its refusal is no config finding."""
    log = _frames(
        (f"{_SITE}/vllm/engine/llm_engine.py", "__init__", "self.tracer = init_tracer("),
        (
            f"{_SITE}/vllm/tracing.py",
            "init_tracer",
            "span_exporter = get_span_exporter(otlp_traces_endpoint)",
        ),
        (f"{_SITE}/vllm/tracing.py", "get_span_exporter", "raise ValueError("),
        last="ValueError: Unsupported OTLP protocol 'http/json' is configured",
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]


@pytest.mark.parametrize(
    ("path", "func", "last"),
    [
        # a compiled kernel's binding that exists for some GPUs only
        (
            f"{_SITE}/vllm/_custom_ops.py",
            "moe_wna16_gemm",
            "NotImplementedError: The optimized moe_wna16_gemm kernel is only available on CUDA platforms",
        ),
        # two packages installed that each register a platform
        (
            f"{_SITE}/vllm/platforms/__init__.py",
            "resolve_current_platform_cls_qualname",
            "RuntimeError: Only one platform plugin can be activated, but got: ['mindspore_model', 'ascend']",
        ),
    ],
)
def test_what_the_machine_and_the_installed_packages_give_the_engine_is_no_setting(
    path: str, func: str, last: str
) -> None:
    log = _frames(
        (f"{_SITE}/vllm/engine/llm_engine.py", "__init__", "self.model_executor = executor_class("),
        (path, func, "raise X("),
        last=last,
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]


def test_verls_device_helpers_probing_the_machine_check_no_setting() -> None:
    """verl/utils/device.py reads the NPU's software version off npu-smi: what it refuses is the
    machine's (a driver's version info not mounted into the container), not a setting."""
    log = _frames(
        ("/opt/verl/verl/workers/rollout/vllm_rollout/utils.py", "__init__", "check_ipc_version_support()"),
        ("/opt/verl/verl/utils/device.py", "check_ipc_version_support", 'raise RuntimeError(f"...")'),
        last="RuntimeError: Error checking IPC support: Invalid software version format: na",
        prefix="(WorkerDict pid=7) ",
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]


def test_a_value_whose_type_verl_checks_names_the_options_ending_in_it() -> None:
    """`temperature must be a float, but got <class 'int'>`: the name whose type is checked is a
    value handed in, here the sampling temperature (a leaf of several rollout keys)."""
    log = _frames(
        ("/opt/verl/verl/workers/actor/dp_actor.py", "_forward_micro_batch", "log_probs = self.fused(x)"),
        (
            "/opt/verl/verl/utils/kernel/linear_cross_entropy.py",
            "forward",
            'assert isinstance(temperature, float), f"temperature must be a float, but got {type(temperature)}"',
        ),
        last="AssertionError: temperature must be a float, but got <class 'int'>",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert (first.rule, first.confidence) == ("CFG014", "medium")
    assert "temperature" in first.basis
    # a word no option ends in stays the code's own check
    other = log.replace("temperature must", "reduction must").replace(
        "temperature, float", "reduction, float"
    )
    assert not diagnose_text(other, _CATALOG).findings


def test_an_error_verl_hands_on_from_its_engine_is_not_verls_check() -> None:
    """verl's collective_rpc re-raises what the engine's workers returned (`raise output`): the
    refusal is the engine's (here its MoE layer judging a checkpoint's scales), not a check of
    verl's config."""
    log = _frames(
        (f"{_SITE}/vllm/v1/worker/gpu_worker.py", "load_model", 'self.collective_rpc("load_model")'),
        (
            "/opt/verl/verl/workers/rollout/vllm_rollout/vllm_async_server.py",
            "collective_rpc",
            "raise output",
        ),
        last="ValueError: input_scales of w1 and w3 of a layer must be equal. But got tensor(0.0213, "
        "device='cuda:0') vs. tensor([0.0187], device='cuda:0')",
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]
    # verl's own check, raised where it is written, is read as one
    own = _frames(
        ("/opt/verl/verl/workers/config/rollout.py", "__post_init__", 'raise ValueError(f"...")'),
        last="ValueError: rollout.n must be positive, got 0",
    )
    assert diagnose_text(own, _CATALOG).findings[0].rule in ("CFG014", "CFG011")


@pytest.mark.parametrize(
    ("path", "message"),
    [
        # a KV-cache precision (kv_cache_dtype, an engine argument) refused in the attention layer
        (
            f"{_SITE}/vllm/attention/layer.py",
            "ValueError: fp8_e5m2 kv-cache is not supported with fp8 checkpoints.",
        ),
        # expert-parallel load balancing (enable_eplb) refused in the MoE layer
        (
            f"{_SITE}/vllm/model_executor/layers/fused_moe/layer.py",
            "NotImplementedError: EPLB is only supported for FP8 quantization for now.",
        ),
    ],
)
def test_an_engine_feature_a_setting_switches_on_refused_in_its_layers_is_that_setting(
    path: str, message: str
) -> None:
    assert diagnose_text(_tb(message, path, "__init__"), _CATALOG).findings[0].rule == "CFG014"


def test_a_pinned_package_said_not_to_be_installed_is_missing() -> None:
    """`needs torchcodec>=0.3.0 with FFmpeg, which is not installed`: the pin names the release
    it would need, of a package that is not there at all."""
    log = _tb(
        "RuntimeError: The audio source is a 'm4a' file, which soundfile cannot decode. Loading audio from this "
        "source needs torchcodec>=0.3.0 with FFmpeg, which is not installed or can't be loaded.",
        f"{_SITE}/transformers/audio_utils.py",
        "load_audio",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert first.rule == "ENV009"
    assert any("torchcodec" in c for fix in first.fixes for c in fix.commands)


@pytest.mark.parametrize(
    ("path", "func", "message"),
    [
        (
            f"{_SITE}/ray/_private/services.py",
            "determine_plasma_store_config",
            "ValueError: The configured object store size (100.0 GB) exceeds /dev/shm size (0.067108864 GB). "
            "This will harm performance. Consider deleting files in /dev/shm or increasing its size with "
            "--shm-size in Docker.",
        ),
        (
            f"{_SITE}/ray/_private/services.py",
            "determine_plasma_store_config",
            "ValueError: The requested object store memory size is greater than the total available memory.",
        ),
        (
            f"{_SITE}/ray/_private/node.py",
            "__init__",
            "ValueError: Unable to parse port number from ${RAY_HEAD_PORT} (full address = 10.1.0.5:${RAY_HEAD_PORT})",
        ),
        (
            f"{_SITE}/ray/_private/node.py",
            "check_persisted_session_name",
            "ValueError: Invalid Redis port provided: -1.The port must be a non-negative integer.",
        ),
    ],
)
def test_ray_judging_the_cluster_it_starts_or_joins_is_no_setting_of_the_run(
    path: str, func: str, message: str
) -> None:
    """Ray's node and services code judges the cluster (its address, ports, session, the object
    store against /dev/shm): no config finding unless a setting of the run is named."""
    assert "CFG014" not in [f.rule for f in diagnose_text(_tb(message, path, func), _CATALOG).findings]


@pytest.mark.parametrize(
    ("path", "func", "message"),
    [
        (
            f"{_SITE}/vllm/inputs/parse.py",
            "parse_and_batch_prompt",
            "ValueError: please provide at least one prompt",
        ),
        (
            f"{_SITE}/vllm/entrypoints/chat_utils.py",
            "all_mm_data",
            "ValueError: Mixing raw image and embedding inputs is not allowed",
        ),
    ],
)
def test_an_engine_refusing_what_a_request_holds_is_no_setting(path: str, func: str, message: str) -> None:
    """vLLM's input parsing and chat-message code judge a request's prompt and messages: what the
    code sending it built, not a setting of the run."""
    codes = [f.rule for f in diagnose_text(_tb(message, path, func), _CATALOG).findings]
    assert not {"CFG011", "CFG014"} & set(codes)


def test_the_phase_a_traceback_failed_in_yields_to_the_environment_error_that_ends_it() -> None:
    """verl's weight sync into an old vLLM (the frames FLOW006 reads) ending in that vLLM's
    loaders lacking the model (ENV004, sure of its words): the release is the answer, and the
    phase it failed in is no second error."""
    base = "/home/user/verl/verl"
    log = (
        "ray.exceptions.RayTaskError(ValueError): ray::WorkerDict.actor_rollout_generate_sequences() "
        "(pid=2291, ip=10.0.0.5, actor_id=a0c2e4f6081a3c5e7f9b1d3f01000000)\n"
        f'  File "{base}/workers/sharding_manager/fsdp_vllm.py", line 179, in __enter__\n'
        f"    self.inference_engine.sync_model_weights(params, load_format=load_format)\n"
        f'  File "{base}/third_party/vllm/vllm_v_0_6_3/llm.py", line 194, in sync_model_weights\n'
        f"    self.llm_engine.sync_model_weights(actor_weights=actor_weights, load_format=load_format)\n"
        f'  File "{base}/third_party/vllm/vllm_v_0_6_3/llm_engine_sp.py", line 387, in sync_model_weights\n'
        f"    self.model_executor.sync_model_weights(actor_weights=actor_weights, load_format=load_format)\n"
        f'  File "{base}/third_party/vllm/vllm_v_0_6_3/worker.py", line 268, in sync_model_weights\n'
        f"    load_dtensor_weights(actor_weights, self.model_runner.model)\n"
        f'  File "{base}/third_party/vllm/vllm_v_0_6_3/dtensor_weight_loaders.py", line 359, in '
        "load_dtensor_weights\n"
        f"    weight_loader = _get_model_weight_loader(vllm_model.__class__.__name__)\n"
        f'  File "{base}/third_party/vllm/vllm_v_0_6_3/dtensor_weight_loaders.py", line 369, in '
        "_get_model_weight_loader\n"
        f'    raise ValueError(f"Model architectures {{arch}} are not supported for now. ...")\n'
        f"ValueError: Model architectures OlmoForCausalLM are not supported for now. Supported "
        "architectures: dict_keys(['GPT2LMHeadModel', 'LlamaForCausalLM'])\n"
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["ENV004"]


def test_a_relayed_refusal_that_holds_the_model_split_against_a_size_is_the_parallel_layout() -> None:
    """Handed on by verl's collective_rpc (`raise output`), an engine's refusal that holds the
    tensor-parallel split against a kernel's size still names the run's setting."""
    log = _frames(
        (f"{_SITE}/vllm/executor/executor_base.py", "__init__", "self._init_executor()"),
        ("/opt/verl/verl/workers/rollout/vllm_rollout/vllm_async_server.py", "_init_executor", "x()"),
        (
            "/opt/verl/verl/workers/rollout/vllm_rollout/vllm_async_server.py",
            "collective_rpc",
            "raise output",
        ),
        last="ValueError: Weight output_size_per_partition = 7392 is not divisible by  min_thread_n = 64. "
        "Consider reducing tensor_parallel_size or running with --quantization gptq.",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG010"


def test_a_tensor_a_check_of_verl_shows_is_data_not_a_setting() -> None:
    """`... assumes prompt_len > 0. Got tensor([0, 0, ...])`: names held to an order, but the value
    shown is a tensor the code computed; no setting of the run is refused."""
    log = _tb(
        "AssertionError: seq_offset - resp_len - 1 assumes prompt_len > 0. Got tensor([0, 0, 0,  ..., 0, 0, 0])",
        "/opt/verl/verl/workers/utils/padding.py",
        "no_padding_2_padding",
        'assert not prompt_lens.eq(0).any(), f"seq_offset - resp_len - 1 assumes prompt_len > 0. Got {prompt_lens}"',
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]


@pytest.mark.parametrize(
    ("path", "func", "message"),
    [
        # `input_size_per_partition` is a layer's share on one tensor-parallel rank: a
        # quantization method refusing it refuses the split, not what the checkpoint is
        (
            f"{_SITE}/sglang/srt/layers/quantization/qoq.py",
            "create_weights",
            "ValueError: Weight input_size_per_partition = 2240 is not divisible by group_size = 128.",
        ),
        # experts that cannot be spread evenly over the expert-parallel ranks
        (
            f"{_SITE}/vllm/model_executor/layers/fused_moe/layer.py",
            "__init__",
            "AssertionError: EPLB currently only supports even distribution of experts across ranks.",
        ),
    ],
)
def test_an_engine_layer_refusing_the_split_over_the_ranks_is_the_parallel_layout(
    path: str, func: str, message: str
) -> None:
    assert diagnose_text(_tb(message, path, func), _CATALOG).findings[0].rule == "CFG010"


def test_the_phase_a_traceback_failed_in_yields_to_the_setting_that_ends_it() -> None:
    """verl's weight sync (the frames FLOW006 reads) ending in a refusal of a setting a rule
    knows by its words (a bucket of 0 bytes): the setting is the answer, and the phase it
    failed in is no second error."""
    base = "/srv/rl/verl/verl"
    log = (
        f'  File "{base}/checkpoint_engine/base.py", line 515, in update_weights\n'
        "    results = ray.get(\n"
        "ray.exceptions.RayTaskError(ValueError): ray::WorkerDict.actor_update_weights() "
        "(pid=5120, ip=10.0.0.8, actor_id=b1d3f5a7c9e1b3d5f7a9c1e301000000)\n"
        f'  File "{base}/single_controller/ray/base.py", line 943, in async_func\n'
        "    return await getattr(self.worker_dict[key], name)(*args, **kwargs)\n"
        f'  File "{base}/workers/engine_workers.py", line 757, in update_weights\n'
        "    metrics = await self.checkpoint_engine.send_weights(per_tensor_param, global_steps=global_steps)\n"
        f'  File "{base}/checkpoint_engine/kimi_checkpoint_engine.py", line 337, in send_weights\n'
        "    for named_tensors_gpu in ckpt_get_named_tensor_buckets(\n"
        f'  File "{base}/checkpoint_engine/kimi_checkpoint_engine.py", line 45, in ckpt_get_named_tensor_buckets\n'
        '    raise ValueError(f"bucket_bytes must be greater than 0, got {bucket_bytes}")\n'
        "ValueError: bucket_bytes must be greater than 0, got 0\n"
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["CFG014"]


def test_a_script_generating_through_torchs_grad_decorator_sets_its_own_values() -> None:
    """A user's script calling generate() (which transformers wraps in `@torch.no_grad()`) with
    a value the GenerationConfig refuses: the script's argument, not a setting of verl's run."""
    log = _frames(
        ("/home/wyq/rl/scripts/beam_eval.py", "main", "gen = model.generate(**enc, early_stopping=flag)"),
        (f"{_SITE}/torch/utils/_contextlib.py", "decorate_context", "return func(*args, **kwargs)"),
        (f"{_SITE}/transformers/generation/utils.py", "generate", "generation_config, model_kwargs = x("),
        (f"{_SITE}/transformers/generation/configuration_utils.py", "update", "self.validate()"),
        (f"{_SITE}/transformers/generation/configuration_utils.py", "validate", "raise ValueError("),
        last="ValueError: `early_stopping` must be a boolean or 'never', but is True.",
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]


def test_a_sampling_value_verls_generation_hands_transformers_is_a_setting() -> None:
    """verl's HF rollout generating with a temperature of 0: transformers' logits warper refuses
    the sampling value the run's generation config gave it."""
    log = _frames(
        ("/workspace/verl/verl/workers/rollout/hf_rollout.py", "_generate_minibatch", "output = x.generate("),
        (f"{_SITE}/torch/utils/_contextlib.py", "decorate_context", "return func(*args, **kwargs)"),
        (f"{_SITE}/transformers/generation/utils.py", "generate", "prepared = self._get_logits_processor("),
        (
            f"{_SITE}/transformers/generation/utils.py",
            "_get_logits_processor",
            "processors.append(TemperatureLogitsWarper(generation_config.temperature))",
        ),
        (f"{_SITE}/transformers/generation/logits_process.py", "__init__", "raise ValueError("),
        last="ValueError: `temperature` (=0.0) has to be a strictly positive float, otherwise your next token "
        "scores will be invalid. If you're looking for greedy decoding strategies, set `do_sample=False`.",
        prefix="(WorkerDict pid=16048) ",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG014"


def test_a_distribution_a_check_asks_to_install_is_a_missing_dependency() -> None:
    log = _tb(
        "AssertionError: causal_conv1d_cuda is not available. Please install causal-conv1d.",
        f"{_SITE}/transformers/models/falcon_mamba/modeling_falcon_mamba.py",
        "cuda_kernels_forward",
        "assert causal_conv1d_cuda is not None, (",
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert first.rule == "ENV009"
    assert any("pip install causal-conv1d" in c for fix in first.fixes for c in fix.commands)


def test_a_ray_core_check_failing_on_a_taken_port_is_the_port() -> None:
    """The GCS server's native check that fails when it cannot bind its port is the port in use,
    not a native crash of its own."""
    log = (
        "RuntimeError: Failed to start GCS.  Last 1 lines of error files:\n"
        "[2025-10-09 16:22:05,318 C 2904417 2904417] (gcs_server) grpc_server.cc:141:  Check failed: "
        "server_ Failed to start the grpc server. The specified port is 6379. This means that Ray's core "
        "components will not be able to function correctly. If the server startup error message is "
        "`Address already in use`, it indicates the server fails to start because the port is already "
        "used by other processes (such as --node-manager-port, --object-manager-port, --gcs-server-port, "
        "and ports between --min-worker-port, --max-worker-port). Try running sudo lsof -i :6379 to check "
        "if there are other processes listening to the port.\n"
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["DIST002"]


def test_one_split_of_the_model_asked_of_another_is_the_parallel_layout() -> None:
    log = _tb(
        "ValueError: When using expert parallelism and tensor parallelism, sequence parallelism must be used",
        f"{_SITE}/megatron/core/model_parallel_config.py",
        "__post_init__",
        "raise ValueError(",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "CFG010"


def test_an_installed_packages_own_folder_is_no_path_of_the_run() -> None:
    """A library looking for a module of its own (transformers' contributor command finding no
    image processing module in its installed models folder): no model path the run gave."""
    log = _tb(
        f"ValueError: No image processing module found in {_SITE}/transformers/models/qwen2_5_vl",
        f"{_SITE}/transformers/commands/add_fast_image_processor.py",
        "add_fast_image_processor",
        "raise ValueError(",
    )
    assert "CFG017" not in [f.rule for f in diagnose_text(log, _CATALOG).findings]


def test_an_engine_config_class_refused_in_a_users_script_is_that_scripts_doing() -> None:
    """pydantic refusing one of vLLM's config classes that a user's own script built (no verl
    frame, command or actor in the log): the script's values, not verl's config; the same
    refusal printed by verl's rollout server is a setting of the run."""
    refusal = [
        "Traceback (most recent call last):",
        '  File "/data/rlhf/judge/build_judge.py", line 58, in <module>',
        "    llm = LLM(model=args.model, config_format='mistral')",
        '  File "/usr/lib/python3/dist-packages/vllm/engine/arg_utils.py", line 956, in create_model_config',
        "    return ModelConfig(",
        '  File "/usr/lib/python3/dist-packages/pydantic/_internal/_dataclasses.py", line 123, in __init__',
        "    s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig",
        "  Value error, Found unknown quantization='awq' in config. Only 'fp8_e4m3' and 'compressed-tensors' "
        "are supported. [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]",
    ]
    alone = diagnose_text("\n".join(refusal) + "\n", _CATALOG)
    assert "CFG014" not in [f.rule for f in alone.findings]
    served = _pydantic_refusal(
        [
            "  Value error, speculative_max_model_len=4096 cannot be larger than draft_max_model_len=2048 "
            "[type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]"
        ]
    )
    assert diagnose_text(served, _CATALOG).findings[0].rule == "CFG014"


def test_a_package_asked_to_be_installed_at_a_release_is_missing() -> None:
    """`Please install vllm by pip install vllm==0.8.4`: the pin is only the release to install;
    nothing says another release is there."""
    log = _tb(
        "ValueError: awq quantization requires some operators from vllm. Please install vllm by "
        "`pip install vllm==0.8.4`",
        f"{_SITE}/sglang/srt/layers/quantization/__init__.py",
        "get_quantization_config",
        "raise ValueError(",
    )
    assert diagnose_text(log, _CATALOG).findings[0].rule == "ENV009"


@pytest.mark.parametrize(
    ("name", "release"),
    [
        ("AutoModelForVision2Seq", True),
        ("AutoModelForCausalLm", False),
        ("AutoModelForTokenClassfication", False),
    ],
)
def test_an_auto_class_no_release_defines_is_a_typo_not_a_release(name: str, release: bool) -> None:
    """register_for_auto_class refusing a name: one transformers 4 defined and 5 dropped is the
    release; a name no release defines is the calling code's typo."""
    log = _tb(
        f"ValueError: {name} is not a valid auto class.",
        f"{_SITE}/transformers/modeling_utils.py",
        "register_for_auto_class",
        'raise ValueError(f"{auto_class} is not a valid auto class.")',
    )
    codes = [f.rule for f in diagnose_text(log, _CATALOG).findings]
    assert ("ENV010" in codes) is release


def test_a_name_this_run_set_that_a_lookup_does_not_find_is_that_setting() -> None:
    """`+...override_config.activation=gelu_tanh`, then transformers' activation table has no
    such function: the value the run set is refused."""
    command = (
        "Error executing job with overrides: ['actor_rollout_ref.model.path=/data/models/falcon-7b', "
        "'+actor_rollout_ref.model.override_config.activation=gelu_tanh']\n"
    )
    log = command + _tb(
        "KeyError: \"function gelu_tanh not found in ACT2FN mapping ['gelu', 'gelu_new', 'relu', 'silu']\"",
        f"{_SITE}/transformers/activations.py",
        "get_activation",
        'raise KeyError(f"function {activation_string} not found in ACT2FN mapping {list(ACT2FN.keys())}")',
    )
    first = diagnose_text(log, _CATALOG).findings[0]
    assert first.rule == "CFG014"
    # (without the override nothing names the run's setting)
    assert "CFG014" not in [f.rule for f in diagnose_text(log[len(command) :], _CATALOG).findings]


def test_a_native_crash_near_a_taken_port_is_still_a_crash() -> None:
    """Only the GCS check that fails on its port is the port: a segmentation fault a few lines
    later in the same log stays a native crash of its own."""
    log = (
        "ConnectionError: Ray is trying to start at 10.0.0.5:6379, but is already running at 10.0.0.5:6379.\n"
        + "".join(f"(WorkerDict pid=19254) step {i}: loss=0.31\n" for i in range(20))
        + "(WorkerDict pid=19254) *** SIGSEGV received at time=1759184497 on cpu 133 ***\n"
    )
    codes = [f.rule for f in diagnose_text(log, _CATALOG).findings]
    assert "DIST002" in codes and "FLOW008" in codes


def test_an_error_hydra_relays_after_its_own_traceback_keeps_that_traceback_reading() -> None:
    """A tokenizer's check failing inside verl's HFModelConfig (its traceback printed in full),
    then Hydra's `Error in call to target` relaying it: the tokenizer raised it, not verl's
    config class; the wrapper adds no config finding."""
    log = _frames(
        ("/home/u/verl/verl/workers/config/model.py", "__post_init__", "self.tokenizer = hf_tokenizer("),
        (f"{_SITE}/transformers/tokenization_utils_base.py", "__init__", "raise ValueError("),
        last="ValueError: Padding side should be selected between 'right' and 'left', current value: Left",
    ) + (
        "\nThe above exception was the direct cause of the following exception:\n\n"
        + _frames(
            ("/home/u/verl/verl/utils/config.py", "omega_conf_to_dataclass", "return instantiate(config)"),
            (
                f"{_SITE}/hydra/_internal/instantiate/_instantiate2.py",
                "_call_target",
                "raise InstantiationException(msg) from e",
            ),
            last="hydra.errors.InstantiationException: Error in call to target "
            "'verl.workers.config.model.HFModelConfig':",
        )
        + "ValueError(\"Padding side should be selected between 'right' and 'left', current value: Left\")\n"
    )
    report = diagnose_text(log, _CATALOG)
    assert "CFG014" not in [f.rule for f in report.findings]


def test_an_engine_layer_holding_the_model_split_to_the_heads_is_the_split() -> None:
    """An engine's layer code judges what the model is; a tensor-parallel size held to the model's
    heads there is the split the rollout was given."""
    log = _frames(
        (f"{_SITE}/vllm/model_executor/models/mamba2.py", "__init__", "self.mixer = MambaMixer2("),
        (
            f"{_SITE}/vllm/model_executor/layers/mamba/mamba_mixer2.py",
            "__init__",
            "assert (num_heads % self.tp_size == 0",
        ),
        last="AssertionError: Tensor parallel world size must divide num heads.",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings][:1] == ["CFG010"]


def test_a_refusal_naming_in_words_an_engine_option_the_run_set_is_that_value() -> None:
    """An engine's attention back-end judges the KV cache (`Block size must be a multiple of 16`):
    what the model is, unless the run set the option the words name (`engine_kwargs.vllm.
    block_size=8`); then it is that value refused."""
    traceback = _frames(
        (
            "/opt/verl/verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py",
            "__init__",
            "self.inference_engine = LLM(",
        ),
        (
            f"{_SITE}/vllm/v1/worker/gpu_model_runner.py",
            "initialize_kv_cache",
            "kv_cache_shape = get_kv_cache_shape(",
        ),
        (
            f"{_SITE}/vllm/v1/attention/backends/triton_attn.py",
            "get_kv_cache_shape",
            'raise ValueError("Block size must be a multiple of 16.")',
        ),
        last="ValueError: Block size must be a multiple of 16.",
    )
    command = (
        "+ python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm "
        "+actor_rollout_ref.rollout.engine_kwargs.vllm.block_size=8\n"
    )
    [finding] = diagnose_text(command + traceback, _CATALOG).findings
    assert finding.rule == "CFG014"
    assert "engine_kwargs.vllm.block_size" in (finding.basis or "")
    assert "CFG014" not in [f.rule for f in diagnose_text(traceback, _CATALOG).findings]


def test_a_models_own_code_file_missing_from_its_repo_is_the_model_not_a_custom_module() -> None:
    """transformers not finding the code file a model's config.json names (`Could not locate
    positional_embedding.py inside org/model`) is the model's files, not a custom module of the
    run's."""
    log = _frames(
        (
            "/opt/verl/verl/workers/fsdp_workers.py",
            "_build_model_optimizer",
            "actor_module = actor_module_class.from_pretrained(",
        ),
        (
            f"{_SITE}/transformers/dynamic_module_utils.py",
            "get_cached_module_file",
            "resolved_module_file = cached_file(",
        ),
        (f"{_SITE}/transformers/utils/hub.py", "cached_file", "raise EnvironmentError("),
        last="OSError: Could not locate positional_embedding.py inside acme-nlp/phi3-small-8k-sft-v2.",
    )
    [finding] = diagnose_text(log, _CATALOG).findings
    assert finding.rule == "CFG017"
    assert "acme-nlp/phi3-small-8k-sft-v2" in finding.cause and "positional_embedding.py" in finding.cause


def test_a_key_a_terminal_cut_at_the_end_of_the_exceptions_line_is_read_whole() -> None:
    """verl's refusal names an option, and a terminal's wrap cut that name in two at the end of
    the exception's own line (`Set use_megatr` / `on_fsdp=False`): the option is read whole."""
    message = (
        "ValueError: Muon layer-wise distributed optimizer is incompatible with Megatron FSDP. Set "
        "use_megatron_fsdp=False or disable use_layer_wise_distributed_optimizer."
    )
    log = _frames(
        (
            "/opt/verl/verl/workers/engine/megatron/transformer_impl.py",
            "_build_megatron_module",
            "module = x(",
        ),
        ("/opt/verl/verl/utils/megatron_utils.py", "make_megatron_module", "raise ValueError("),
        last=message[:100] + "\n" + message[100:],
    )
    assert len(message[:100]) == 100 and message[:100].endswith("use_megatr")
    [finding] = diagnose_text(log, _CATALOG).findings
    assert finding.rule == "CFG014"
    assert "use_megatron_fsdp" in (finding.basis or "")


def test_an_engine_that_cannot_build_the_model_is_its_failed_start_and_its_repeats_are_answered() -> None:
    """SGLang's code for an architecture refusing the model's activation: the engine never starts
    (FLOW010, which takes the place of the worker's death after it). The message a terminal cut
    mid-word, printed again by another rank with no traceback, is the same answered exception."""
    message = "ValueError: Unsupported activation: gelu. Only silu is supported for now."
    head = (
        '(WorkerDict pid=3321)   File "/usr/local/lib/python3.10/dist-packages/sglang/srt/models/qwen2_moe.py", '
        "line 102, in __init__\n"
        "(WorkerDict pid=3321)     raise ValueError(\n"
    )
    line = "(WorkerDict pid=3321) " + message
    log = (
        head
        + line[:90]
        + "\n"
        + line[90:]
        + "\n"
        + "(WorkerDict pid=3321) [2025-07-08 16:40:15 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
        + line[:90]
        + "\n"
        + line[90:]
        + "\n"
        + "(raylet) A worker died or was killed while executing a task by an unexpected system error.\n"
    )
    assert len(line) > 90
    report = diagnose_text(log, _CATALOG)
    assert [f.rule for f in report.findings] == ["FLOW010"]
    assert report.unrecognized == ()


def test_rays_repeat_mark_on_the_rest_of_a_cut_message_is_not_part_of_it() -> None:
    """Ray folds the other ranks' copies of a wrapped line into one, marking the last piece
    (`... gelu_pytorch_tanh`. [repeated 7x across cluster]`): the message read whole is the one
    the first rank printed, the same answered exception."""
    message = (
        "ValueError: Gemma3 uses `gelu_pytorch_tanh` as the hidden activation function. Please set "
        "`hidden_activation` to `gelu_pytorch_tanh`."
    )
    first = "(WorkerDict pid=51872, ip=10.20.3.17) " + message
    again = "(WorkerDict pid=51875, ip=10.20.3.17) " + message
    log = (
        '(WorkerDict pid=51872, ip=10.20.3.17)   File "/opt/conda/lib/python3.10/site-packages/sglang/srt/'
        'models/gemma3_causal.py", line 96, in __init__\n'
        "(WorkerDict pid=51872, ip=10.20.3.17)     raise ValueError(\n"
        + first[:100]
        + "\n"
        + first[100:]
        + "\n"
        + again[:100]
        + "\n"
        + again[100:]
        + " [repeated 7x across cluster]\n"
    )
    report = diagnose_text(log, _CATALOG)
    assert [f.rule for f in report.findings] == ["FLOW010"]
    assert report.unrecognized == ()


def test_the_commands_bash_traces_after_an_exception_are_no_part_of_its_message() -> None:
    """A launch script run with `set -x` goes on after the failure (`+ cp /tmp/run.log
    /mnt/logs/...`): a traced command is a record of its own, not the rest of a long exception
    line (whose words it would change: `cp` reads as context parallelism)."""
    log = (
        _frames(
            (
                "/mnt/work/verl/verl/plugin/platform/platform_manager.py",
                "_create_platform",
                "raise ValueError(",
            ),
            last="ValueError: Unknown platform 'cuda'. Registered: ('nvidia', 'huawei', 'amd'). Use "
            "@PlatformRegistry.register() to add a new platform.",
        )
        + "+ echo 'train exited with 1'\ntrain exited with 1\n+ cp /tmp/verl_run.log /mnt/logs/grpo_20260904.log\n"
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["CFG014"]


def test_omegaconf_relaying_a_config_dataclass_refusal_is_that_config_check() -> None:
    # OmegaConf.to_object building verl's HFModelConfig: its __post_init__ refused, and OmegaConf
    # relays the refusal under its own class
    log = _tb(
        "omegaconf.errors.ConfigTypeError: Could not create instance of `HFModelConfig`: target_modules "
        "must be a string or a list of strings, but got dict",
        "/home/lw/verl/verl/workers/config/model.py",
        "__post_init__",
        "raise TypeError(",
    )
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings] == ["CFG014"]


def test_a_refusal_showing_the_value_of_an_exported_variable_is_that_variable() -> None:
    refusal = _tb(
        "ValueError: Port is not specified for address 10.10.1.21",
        "/usr/local/lib/python3.10/dist-packages/ray/_private/node.py",
        "validate_ip_port",
        'raise ValueError(f"Port is not specified for address {ip_port}")',
    )
    for export in (
        "export RAY_ADDRESS=10.10.1.21\n",
        "root@node-3:/workspace# export RAY_ADDRESS='10.10.1.21'\n",
        "+ export RAY_ADDRESS=10.10.1.21\n",
    ):
        report = diagnose_text(
            export + "python3 -m verl.trainer.main_ppo trainer.nnodes=2\n" + refusal, _CATALOG
        )
        [finding] = report.findings
        assert finding.rule == "CFG014"
        assert "10.10.1.21" in finding.cause and "RAY_ADDRESS" in finding.cause
        assert "unset RAY_ADDRESS" in [c for f in finding.fixes for c in f.commands]
    # a value no variable exported, or one another variable shares, names no variable
    assert not diagnose_text("export RAY_ADDRESS=10.10.1.22\n" + refusal, _CATALOG).findings
    both = "export RAY_ADDRESS=10.10.1.21\nexport MASTER_ADDR=10.10.1.21\n"
    assert not diagnose_text(both + refusal, _CATALOG).findings
    # a credential's value is never named in the cause
    secret = refusal.replace("10.10.1.21", "hunter2xyz")
    assert not diagnose_text("export DB_PASSWORD=hunter2xyz\n" + secret, _CATALOG).findings


def test_a_config_a_refusal_prints_after_its_words_names_no_path_or_key_it_refused() -> None:
    module = "pkg://verl.experimental.dynamic_dataset.dynamicgen_dataset"
    text = _overrides(f"data.custom_cls.path={module}", "data.train_files=/d/countdown/train.parquet") + _tb(
        "AssertionError: datagen path is not set in config: {'tokenizer': None, 'train_files': "
        f"'/d/countdown/train.parquet', 'custom_cls': {{'path': '{module}', 'name': 'DynamicGenDataset'}}}}",
        "/opt/verl/verl/experimental/dynamic_dataset/dynamicgen_dataset.py",
        "__init__",
        'assert "datagen" in config and config.datagen.get("path", None) is not None, (',
    )
    [first] = diagnose_text(text, _CATALOG).findings
    # (a section left unset, not the custom module the run named, nor every key the dump holds)
    assert first.rule == "CFG011"
    assert "train_files" not in first.basis and module not in first.basis


def test_a_request_the_server_refused_is_the_calling_code_not_a_setting() -> None:
    # vLLM's OpenAI server inside verl's AsyncvLLMServer validating a chat request a rollout
    # callback built; the same words for a reply the client could not read
    for cls in ("ChatCompletionRequest", "CompletionRequest", "ChatCompletion"):
        text = _tb(
            f"pydantic_core._pydantic_core.ValidationError: 1 validation error for {cls}",
            "/opt/verl/verl/workers/rollout/vllm_rollout/vllm_async_server.py",
            "chat_completion",
            "request = ChatCompletionRequest(**request_json)",
        ) + (
            "(TaskRunner pid=3012)   Value error, When using `tool_choice`, `tools` must be set. "
            "[type=value_error, input_value={'model': 'x'}, input_type=dict]\n"
        )
        assert not diagnose_text(text, _CATALOG).findings, cls


def test_a_machine_probe_that_failed_is_no_setting_it_was_sizing() -> None:
    # SGLang's ServerArgs reading GPU memory through nvidia-smi while verl builds the rollout
    sglang = "/usr/local/lib/python3.10/dist-packages/sglang/srt"
    text = (
        "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=sglang\n"
        "Traceback (most recent call last):\n"
        '  File "/workspace/verl/verl/workers/rollout/sglang_rollout/sglang_rollout.py", line 131, in __init__\n'
        "    super().__init__(**kwargs)\n"
        f'  File "{sglang}/entrypoints/engine.py", line 116, in __init__\n'
        "    server_args = ServerArgs(**kwargs)\n"
        '  File "<string>", line 145, in __init__\n'
        f'  File "{sglang}/server_args.py", line 244, in __post_init__\n'
        "    gpu_mem = get_device_memory_capacity(self.device)\n"
        f'  File "{sglang}/utils.py", line 1271, in get_device_memory_capacity\n'
        "    gpu_mem = get_nvgpu_memory_capacity()\n"
        f'  File "{sglang}/utils.py", line 1217, in get_nvgpu_memory_capacity\n'
        '    raise RuntimeError(f"nvidia-smi error: {result.stderr.strip()}")\n'
        "RuntimeError: nvidia-smi error: Unable to determine the device handle for GPU0000:CB:00.0: Unknown Error\n"
    )
    assert "CFG014" not in [f.rule for f in diagnose_text(text, _CATALOG).findings]


def test_a_feature_naming_itself_and_its_mode_before_its_words_refuses_no_setting() -> None:
    # verl's VeOmni router replay: `router_replay REPLAY:` says who checks; the run set
    # router_replay.mode, which the tag names, but the check is about the recorded routing
    run = _overrides("actor_rollout_ref.actor.router_replay.mode=R3", "model_engine=veomni")
    for message in (
        "RuntimeError: router_replay REPLAY: layer pos=47 has no target (only 47 targets set for this "
        "micro-batch). Likely cause: model has more MoE layers than the recorded routed_experts tensor "
        "describes, or begin_microbatch was not called before forward.",
        "RuntimeError: router_replay R3: micro_batch missing 'response_mask'. R3 needs the response_mask "
        "to know which tokens have real recorded routing.",
    ):
        text = run + _tb(
            message,
            "/opt/verl/verl/utils/veomni/router_replay.py",
            "on_router_forward",
            "raise RuntimeError(",
        )
        assert "CFG014" not in [f.rule for f in diagnose_text(text, _CATALOG).findings], message
    # a refusal that names the setting in its own words still is that setting
    refused = run + _tb(
        "ValueError: router_replay.mode must be one of disabled, R2, R3, got R4",
        "/opt/verl/verl/workers/config/actor.py",
        "__post_init__",
        "raise ValueError(",
    )
    assert [f.rule for f in diagnose_text(refused, _CATALOG).findings][:1] == ["CFG014"]


def test_a_lora_adapter_folder_that_is_not_there_is_the_adapter_path_setting() -> None:
    run = _overrides("actor_rollout_ref.model.lora_adapter_path=jdoe-lab/qwen2.5-1.5b-sft-lora")
    # verl's own message (verl/utils/model.py get_lora_rank_from_adapter): the rule's signature
    text = run + _tb(
        "FileNotFoundError: LoRA adapter path not found: /root/work/jdoe-lab/qwen2.5-1.5b-sft-lora",
        "/opt/verl/verl/utils/model.py",
        "get_lora_rank_from_adapter",
        'raise FileNotFoundError(f"LoRA adapter path not found: {adapter_path}")',
    )
    [finding] = diagnose_text(text, _CATALOG).findings
    assert (finding.rule, finding.confidence) == ("CFG017", "high")
    assert (
        "lora_adapter_path" in finding.cause and "/root/work/jdoe-lab/qwen2.5-1.5b-sft-lora" in finding.cause
    )
    commands = [c for f in finding.fixes for c in f.commands]
    assert "ls -l /root/work/jdoe-lab/qwen2.5-1.5b-sft-lora/adapter_config.json" in commands
    # another library's words for the same folder: the fallback by the exception's class
    other = _tb(
        "FileNotFoundError: Adapter folder not found: /data/adapters/sft_r16",
        "/usr/local/lib/python3.10/dist-packages/peft/utils/save_and_load.py",
        "load_peft_weights",
    )
    [finding] = diagnose_text(run + other, _CATALOG).findings
    assert (finding.rule, finding.confidence) == ("CFG017", "medium")
    assert "/data/adapters/sft_r16" in finding.cause


def test_a_call_or_a_request_an_engine_refused_is_the_calling_code_not_a_setting() -> None:
    vllm = "/usr/local/lib/python3.10/dist-packages/vllm"
    run = "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm\n"
    for message, path, func in (
        # the offline LLM class's methods judge the call a script made
        (
            "ValueError: LLM.score() is only supported for pooling models. Try passing `--runner pooling` to "
            "use the model as a pooling model.",
            f"{vllm}/entrypoints/llm.py",
            "score",
        ),
        # a request's parameters, refused by the tokenizer the server uses
        (
            "ValueError: skip_special_tokens=False is not supported for Mistral tokenizers.",
            f"{vllm}/transformers_utils/tokenizers/mistral.py",
            "validate_request_params",
        ),
    ):
        assert "CFG014" not in [
            f.rule for f in diagnose_text(run + _tb(message, path, func), _CATALOG).findings
        ]
    # what LLM() refuses while it is built from the engine arguments verl passes is a setting
    built = _tb(
        "ValueError: Unable to use nsight profiling unless workers run with Ray.",
        f"{vllm}/entrypoints/llm.py",
        "__init__",
        "self.llm_engine = LLMEngine.from_engine_args(",
    )
    assert [f.rule for f in diagnose_text(run + built, _CATALOG).findings][:1] == ["CFG014"]


def test_a_merger_whose_hub_upload_failed_is_a_merge_that_failed_after_writing_its_folder() -> None:
    merger = "/opt/verl/verl/model_merger/base_model_merger.py"
    log = (
        "$ python3 -m verl.model_merger merge --backend fsdp --local_dir ckpt/global_step_300/actor "
        "--target_dir /mnt/shared/hf --hf_upload_path me/qwen-grpo\n"
        "Saving model to /mnt/shared/hf\n"
        "Traceback (most recent call last):\n"
        f'  File "{merger}", line 265, in upload_to_huggingface\n'
        "    api.upload_folder(folder_path=self.config.target_dir, repo_id=self.config.hf_upload_path)\n"
        "PermissionError: [Errno 13] Permission denied: '/mnt/shared/hf/eval/results.jsonl'\n"
        "\nThe above exception was the direct cause of the following exception:\n\n"
        "Traceback (most recent call last):\n"
        f'  File "{merger}", line 274, in upload_to_hugging\n'
        "face\n"
        '    raise FileNotFoundError(f"Local folder error: {self.config.target_dir} - {str(e)}") from e\n'
        "FileNotFoundError: Local folder error: /mnt/shared/hf - [Errno 13] Permission denied: "
        "'/mnt/shared/hf/eval/results.jsonl'\n"
    )
    [finding] = diagnose_text(log, _CATALOG).findings
    assert finding.rule == "FLOW011"
    assert "--hf_upload_path" in finding.cause and "writing its result failed" not in finding.cause
    commands = [c for f in finding.fixes for c in f.commands]
    assert "huggingface-cli whoami" in commands and not any(c.startswith("df -h") for c in commands)


def test_a_model_path_named_like_a_step_folder_does_not_outrank_the_error_the_log_shows() -> None:
    run = _overrides("actor_rollout_ref.model.path=/data/ckpt/grpo_merged/global_step_300")
    oom = _tb(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
        "capacity of 79.15 GiB of which 1.02 GiB is free.",
        "/opt/verl/verl/workers/actor/dp_actor.py",
        "_forward_micro_batch",
    )
    assert [f.rule for f in diagnose_text(run + oom, _CATALOG).findings][:1] == ["FLOW004"]
    # with nothing else explaining the failure, the step folder given as the model still is
    unknown = _tb("OSError: Can't load tokenizer for '/data/ckpt/grpo_merged/global_step_300'.")
    assert "CFG017" in [f.rule for f in diagnose_text(run + unknown, _CATALOG).findings]


def test_an_engine_attention_backend_refusing_this_gpu_is_the_gpu() -> None:
    text = "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm\n" + _tb(
        "AssertionError: FlashAttnMLA is not supported on this device",
        "/usr/local/lib/python3.10/dist-packages/vllm/v1/attention/backends/mla/flashattn_mla.py",
        "__init__",
        'assert is_flashattn_mla_supported()[0], "FlashAttnMLA is not supported on this device"',
    )
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings] == ["ENV007"]


def test_a_path_any_setting_gave_that_is_not_there_is_that_settings_value() -> None:
    run = _overrides("+ray_kwargs.ray_init.runtime_env.conda=/mnt/nas/conda/envs/verl", "trainer.nnodes=2")
    text = run + _tb(
        "ValueError: Can't find conda env directory /mnt/nas/conda/envs/verl.",
        "/usr/local/lib/python3.10/dist-packages/ray/_private/runtime_env/conda.py",
        "get_conda_env_dir",
        'raise ValueError(f"Can\'t find conda env directory {env_dir}.")',
    )
    [finding] = diagnose_text(text, _CATALOG).findings
    assert finding.rule == "CFG014" and "ray_kwargs.ray_init.runtime_env.conda" in finding.cause
    assert "a path that is not there (/mnt/nas/conda/envs/verl)" in finding.cause
    assert [c for f in finding.fixes for c in f.commands] == ["ls -ld /mnt/nas/conda/envs/verl"]
    # a path the run did not give names no setting
    other = text.replace("Can't find conda env directory /mnt/nas/conda/envs/verl.", "Can't find /opt/x/y.")
    assert "CFG014" not in [f.rule for f in diagnose_text(other, _CATALOG).findings]
    # a module file a setting gave is the custom module that is not there
    module = _overrides("reward_model.data_processor_config.path=./genrm_proc.py") + _tb(
        "FileNotFoundError: Reward process function file './genrm_proc.py' not found.",
        "/opt/verl/verl/utils/import_utils.py",
        "load_extern_type",
    )
    assert [f.rule for f in diagnose_text(module, _CATALOG).findings][:1] == ["CFG008"]


def test_a_servers_own_failure_its_client_saw_echoes_what_the_server_says() -> None:
    client = (
        "(TaskRunner pid=12) Traceback (most recent call last):\n"
        '(TaskRunner pid=12)   File "/opt/verl/verl/trainer/ppo/reward.py", line 55, in wrapped_fn\n'
        "(TaskRunner pid=12)     r.raise_for_status()\n"
        "(TaskRunner pid=12) requests.exceptions.HTTPError: 500 Server Error: Internal Server Error for "
        "url: http://10.0.2.9:8008/judge\n"
    )
    dead = (
        "(vLLMHttpServer pid=21988) ERROR 12-12 17:40:02 [core_client.py:564] Engine core proc "
        "EngineCore_DP0 died unexpectedly, shutting down client.\n"
    )
    assert [f.rule for f in diagnose_text(dead + client, _CATALOG).findings] == ["FLOW013"]
    # alone, it says where to look, not that its cause was cut off
    report = diagnose_text(client, _CATALOG)
    assert not report.findings
    [entry] = report.unrecognized
    assert "that server's log" in (entry.hint or "")
    # a client's error for the request it sent (4xx) is no echo
    refused = client.replace("500 Server Error: Internal Server Error", "400 Client Error: Bad Request")
    assert "that server's log" not in (diagnose_text(refused, _CATALOG).unrecognized[0].hint or "")


def test_a_guess_from_a_tracebacks_shape_stands_below_the_reading_of_its_exception() -> None:
    """A traceback through verl's weight sync (a guess from its shape) that ends in verl refusing a
    setting of the run by its words: the refusal leads, the guess stays beside it."""
    text = (
        "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.checkpoint_engine.backend=delta_sharded "
        "+actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.delta_sharded.encoding=indices\n"
        "Traceback (most recent call last):\n"
        '  File "/root/verl/verl/checkpoint_engine/base.py", line 535, in update_weights\n'
        "    results = ray.get(\n"
        "ray.exceptions.RayTaskError(NotImplementedError): ray::WorkerDict.actor_update_weights() (pid=5102, "
        "ip=10.0.0.5, actor_id=e18c4a7d, repr=<verl.single_controller.ray.base.WorkerDict object at 0x7f31>)\n"
        '  File "/root/verl/verl/workers/engine_workers.py", line 761, in update_weights\n'
        "    metrics = await self.checkpoint_engine.send_weights(self.actor.engine)\n"
        '  File "/root/verl/verl/checkpoint_engine/delta_checkpoint_engine.py", line 601, in send_weights\n'
        "    engine.prime_delta_snapshots()\n"
        '  File "/root/verl/verl/workers/engine/base.py", line 204, in prime_delta_snapshots\n'
        "    gen, _ = self.get_per_tensor_param_shard()\n"
        '  File "/root/verl/verl/workers/engine/veomni/transformer_impl.py", line 579, in get_per_tensor_param_shard\n'
        "    gen, meta = veomni_shard_export(self.module)\n"
        '  File "/root/verl/verl/workers/engine/veomni/utils.py", line 321, in veomni_shard_export\n'
        '    raise NotImplementedError("VeOmni GPT-OSS does not support delta_sharded weight updates")\n'
        "NotImplementedError: VeOmni GPT-OSS does not support delta_sharded weight updates\n"
    )
    findings = diagnose_text(text, _CATALOG).findings
    assert [f.rule for f in findings][:2] == ["CFG014", "FLOW006"]
    assert findings[1].basis == "clue"
