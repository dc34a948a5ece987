"""Choosing the language (`--lang`, else LC_ALL / LANGUAGE / LANG starting with `zh`) and the
few interface words the renderers print around the rules' own texts."""

from __future__ import annotations

import os

LANGS = ("en", "zh")

_WORDS = {
    "en": {
        "cause": "cause",
        "fix": "fix",
        "pitfalls": "do not",
        "references": "references",
        "evidence": "evidence",
        "symptom": "symptom: usually an echo of another failure",
        "root": "root cause",
        "confidence": "confidence",
        "phase": "while",
        "unrecognized": "not recognized",
        "also_unrecognized": "Also seen, not recognized",
        "none": "no error found",
        "known": "known error",
        "known_plural": "known errors",
        "in": "in",
        "lines": "lines",
        "occurrences": "occurrences",
        "on": "on",
        "workers": "workers",
        "hosts": "hosts",
        "worker": "worker",
        "host": "host",
        "applies": "applies to verl",
        "context": "run",
        "fingerprint": "fingerprint",
        "verl_frame": "deepest verl frame",
        "hint": "look",
        "user_rule": "user rule from",
        "replaces": "replaces the built-in rule",
        "user_fixes": "from your rule file, not checked by verl-doctor",
        "unknown_only": "no known error; exceptions no rule knows",
        "possibly": "possibly",
        "basis_envelope": "weaker evidence: only a Ray wrapper names the exception type",
        "basis_exception": "weaker evidence: recognised from {detail}, not from a message a rule knows",
        "basis_clue": "weak evidence: read from the traceback's shape, not from words a rule knows",
        "basis_warning": "weak evidence: a warning printed before the failure, not the failure itself",
        "basis_repeated": "a warning, not an error: the run went on, but met it {detail} times, "
        "each a sample (or a weight) it lost",
        "basis_unscored": "a warning, not an error: the run went on, but its mean score is {detail}: "
        "no sample scored",
        "warnings": "Warnings (printed before a failure; they do not fail the run)",
        "warning": "warning",
        "check_fail": "problem verl would stop on",
        "check_fail_plural": "problems verl would stop on",
        "check_maybe": "may fail at run time",
        "check_pass": "the command passes verl's start-up checks",
        "override": "override",
        "overrides": "overrides",
    },
    "zh": {
        "cause": "原因",
        "fix": "修复",
        "pitfalls": "不要",
        "references": "参考",
        "evidence": "证据",
        "symptom": "症状：通常是其他故障的连带报错",
        "root": "根因",
        "confidence": "置信度",
        "phase": "阶段",
        "unrecognized": "未识别",
        "also_unrecognized": "另见，未识别的异常",
        "none": "未发现错误",
        "known": "个已知错误",
        "known_plural": "个已知错误",
        "in": "于",
        "lines": "行",
        "occurrences": "次",
        "on": "出现在",
        "workers": "个 worker",
        "hosts": "台主机",
        "worker": "个 worker",
        "host": "台主机",
        "applies": "适用于 verl",
        "context": "运行环境",
        "fingerprint": "指纹",
        "verl_frame": "最深的 verl 调用帧",
        "hint": "提示",
        "user_rule": "用户规则，来自",
        "replaces": "替换了内置规则",
        "user_fixes": "来自你的规则文件，verl-doctor 未核对",
        "unknown_only": "没有已知错误；以下异常没有规则能识别",
        "possibly": "可能是",
        "basis_envelope": "证据较弱：只有 Ray 的包装行给出了异常类型",
        "basis_exception": "证据较弱：依据 {detail} 识别，而不是规则已知的报错文本",
        "basis_clue": "证据弱：依据调用栈的形态判断，而非规则已知的报错文字",
        "basis_warning": "证据弱：这是故障之前打印的警告，而不是故障本身",
        "basis_repeated": "这是警告而非错误：运行继续进行，但它出现了 {detail} 次，"
        "每次都损失一个样本（或一个权重）",
        "basis_unscored": "这是警告而非错误：运行继续进行，但平均分数为 {detail}：没有任何样本得分",
        "warnings": "警告（在故障之前打印；它们本身不会使运行失败）",
        "warning": "警告",
        "check_fail": "个会让 verl 停下的问题",
        "check_fail_plural": "个会让 verl 停下的问题",
        "check_maybe": "个可能在运行时失败",
        "check_pass": "命令能通过 verl 启动时的检查",
        "override": "个覆盖项",
        "overrides": "个覆盖项",
    },
}


def choose_lang(flag: str | None = None, environ: dict[str, str] | None = None) -> str:
    if flag:
        return flag
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LANGUAGE", "LANG"):
        value = env.get(var, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def basis_note(basis: str, lang: str) -> str | None:
    """How sure a finding is, in words, when it does not rest on the rule's own message."""
    w = words(lang)
    kind, _, detail = basis.partition(": ")
    note = w.get(f"basis_{kind}")
    return note.format(detail=detail) if note else None


def words(lang: str) -> dict[str, str]:
    return _WORDS.get(lang, _WORDS["en"])
