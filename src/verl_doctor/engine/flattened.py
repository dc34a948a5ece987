"""A log whose line ends were lost: a traceback pasted into a web form or a chat that joined
its lines with spaces. Cut back into the lines it was made of, each piece reads as it would
have: the worker's prefix, a frame, the source line under it, the exception.
"""

from __future__ import annotations

from verl_doctor.common.lazy_re import lazy_compile

# Shorter than this, a line holding two frames is a line as printed (a repr, a message quoting one).
FLAT_MIN = 200

# Where a record of a traceback starts: a Ray worker's prefix, the traceback's head, a frame, an
# exception line (its class in code's spelling, `TypeError: ...`), Hydra's wrapper.
_RECORD_START = lazy_compile(
    r"(?<=\s)(?:"
    r"(?P<prefix>\([\w.:-]+ pid=\d+(?:, ip=[\d.]+)?\) )|"
    r"Traceback \(most recent call last\):|"
    r"(?P<frame>File \"[^\"\n]{1,400}\", line \d+, in [\w<>.]+)|"
    r"(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning): |"
    r"Error executing job with overrides|"
    r"During handling of the above exception|The above exception was the direct cause"
    r")"
)
_FRAME = lazy_compile(r"(?<=\s)File \"[^\"\n]{1,400}\", line \d+, in [\w<>.]+")


def flattened_pieces(text: str) -> list[str] | None:
    """The lines a flattened traceback was made of, or None when `text` is a line as printed
    (fewer than two frames in it, or too short to be a whole traceback)."""
    if len(text) < FLAT_MIN or text.count('File "') < 2 or len(_FRAME.findall(text, 1)) < 2:
        return None
    cuts = [0]
    after_prefix = -1  # the end of a worker's prefix: what follows it is its own record's start
    for m in _RECORD_START.finditer(text, 1):
        if m.start() != after_prefix:
            cuts.append(m.start())
        if m.group("prefix"):
            after_prefix = m.end()
        if m.group("frame"):
            cuts.append(m.end())  # the source line Python printed under the frame comes next
    cuts.append(len(text))
    pieces = [text[a:b].strip() for a, b in zip(cuts, cuts[1:], strict=False)]
    return [p for p in pieces if p] or None
