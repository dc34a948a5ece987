"""A log whose line ends were lost: a traceback pasted into a web form or a chat that joined
its lines with spaces. Cut back into the lines it was made of, each piece reads as it would
have: the worker's prefix, a frame, the source line under it, the exception.
"""

from __future__ import annotations

from verl_doctor.common.lazy_re import lazy_compile

# Shorter than this, a line holding two frames is a line as printed (a repr, a message quoting one);
# one frame and the exception after it (or Hydra's failure and its exception) need the second.
FLAT_MIN = 200
FLAT_SHORTEST = 100

# Where a record of a traceback starts: a Ray worker's prefix, the traceback's head, a frame, an
# exception line (its class in code's spelling, `TypeError: ...`), Hydra's wrapper.
_RECORD_START = lazy_compile(
    r"(?<!\S)(?:"
    r"(?P<prefix>\([\w.:-]+ pid=\d+(?:, ip=[\d.]+)?\) +|\[(?:rank|default)\d+\]: +)|"
    r"Traceback \(most recent call last\):|"
    # a glog-style record (torch's elastic launcher, Ray's C++ core): `W1206 09:20:48.771000 3120 ...`
    r"[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ |"
    r"(?P<frame>File \"[^\"\n]{1,400}\", line \d+, in [\w<>.]+)|"
    r"(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning): |"
    # Ray's envelope, `ray.exceptions.RayTaskError(AssertionError): ray::...`
    r"(?:[a-z_]\w*\.)*Ray\w*Error\([\w.]+\): |"
    # pydantic's lines under `N validation errors for Model`: each field's, its complaint, its link
    r"(?P<pydantic>(?<=validation error for )[A-Z]\w*|(?<=validation errors for )[A-Z]\w*)|"
    r"(?:Input should be|Field required|Value error,|Extra inputs are not permitted|"
    r"For further information visit)\b|"
    # a bare exception (`AssertionError`), followed by the blank line after it or by nothing
    r"(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Interrupt|Exit)(?=\s*$|\s{2})|"
    # the marks Python 3.11+ prints under the failing expression: a line of their own
    r"(?P<marks>[~^]*\^[~^]*)(?=\s|$)|"
    r"Error executing job with overrides|Error in call to target|"
    r"Set the environment variable HYDRA_FULL_ERROR|"
    # the exception Hydra prints under `Error in call to target 'X':`, in its repr
    r"(?<=': )(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)\(|"
    # the lines OmegaConf prints under its error, each of its own
    r"full_key: |reference_type=|object_type=|"
    r"During handling of the above exception|The above exception was the direct cause"
    r")"
)
_FRAME = lazy_compile(r"(?<!\S)File \"[^\"\n]{1,400}\", line \d+, in [\w<>.]+")


# The exception a traceback ends in, after its frames: `KeyError: 'x'`, or a bare `AssertionError`.
_EXCEPTION = lazy_compile(r"(?<=\s)(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)(?::\s|\s*$|\s{2})")
_HYDRA_FAILED = "Error executing job with overrides"
# What Hydra prints on the lines after it: the class it failed to build, the exception, its hint.
_AFTER_HYDRA = lazy_compile(
    r"(?<=\s)(?:Error in call to target|Set the environment variable HYDRA_FULL_ERROR|"
    r"(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception): )"
)


def _is_flattened(text: str) -> bool:
    """Whether `text` holds the lines of a traceback joined into one: two frames, one frame and
    the exception after it, or Hydra's failure and what it prints under it."""
    if len(text) < FLAT_SHORTEST:
        return False
    frames = text.count('File "')
    # (a frame line as printed ends with its function's name: nothing after it to cut)
    if frames > 1 or (frames == 1 and " " in text[text.rfind(", in ") + 5 :].strip()):
        first = _FRAME.search(text)
        if first is not None:
            after = first.end()
            if len(text) >= FLAT_MIN and frames > 1 and _FRAME.search(text, after) is not None:
                return True
            if _EXCEPTION.search(text, after) is not None:
                return True
    at = text.find(_HYDRA_FAILED)
    return at >= 0 and _AFTER_HYDRA.search(text, at + len(_HYDRA_FAILED)) is not None


def flattened_pieces(text: str) -> list[str] | None:
    """The lines a flattened traceback was made of, or None when `text` is a line as printed."""
    if not _is_flattened(text):
        return None
    cuts = [0]
    after_prefix = -1  # the end of a worker's prefix: what follows it is its own record's start
    for m in _RECORD_START.finditer(text):
        if m.start() != after_prefix and not m.group("pydantic"):
            cuts.append(m.start())
        if m.group("prefix"):
            after_prefix = m.end()
        if m.group("frame") or m.group("marks") or m.group("pydantic"):
            # (the source line Python printed under the frame comes next; the field pydantic
            # names, on the line after the model it validated)
            cuts.append(m.end())
    cuts.append(len(text))
    pieces = [text[a:b].strip() for a, b in zip(cuts, cuts[1:], strict=False)]
    return [p for p in pieces if p] or None
