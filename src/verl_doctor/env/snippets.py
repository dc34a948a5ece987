"""The Python code each probe runs inside the target interpreter (`python -c SNIPPET`).

Rules for these strings: they run on whatever Python the user has (possibly far too old for
verl), so no f-strings or newer syntax; they import the standard library before putting the
working directory back on sys.path (a `json.py` or `csv.py` next to the user's script must
not break the probe), then import the package under test exactly as `python3 -c "import X"`
would from that directory; they print one JSON object after MARKER as their last line.
"""

from __future__ import annotations

from verl_doctor.env.runner import MARKER

# Distributions whose versions the judges compare; verl's own requirements are added to these.
DISTRIBUTIONS = (
    "verl",
    "torch",
    "vllm",
    "sglang",
    "transformers",
    "ray",
    "flash-attn",
    "tensordict",
    "numpy",
    "sgl-kernel",
    "sglang-kernel",
    "transformer-engine",
    "apex",
    "megatron-core",
    "mbridge",
    "triton",
)

_PREAMBLE = r"""
import sys
_entry = sys.path.pop(0) if sys.path and sys.path[0] in ("", ".") else None
import json, os, platform, traceback, warnings
try:
    import importlib, importlib.util as _iu
except ImportError:
    importlib = _iu = None
try:
    from importlib import metadata as _md
except ImportError:
    _md = None

def _emit(obj):
    sys.stdout.write("\n" + MARKER + json.dumps(obj) + "\n")
    sys.stdout.flush()

def _restore():
    if _entry is not None:
        sys.path.insert(0, _entry)

def _search_path():
    return ([os.getcwd()] if _entry is not None else []) + list(sys.path)

def _dist(name):
    if _md is None:
        return None
    for cand in (name, name.replace("-", "_")):
        try:
            found = list(_md.distributions(name=cand, path=_search_path()))
        except Exception:
            found = []
        if found:
            return found[0]
    return None

def _dist_info(dist):
    info = {"version": dist.version}
    try:
        info["requires_python"] = dist.metadata.get("Requires-Python")
    except Exception:
        pass
    try:
        info["location"] = str(dist.locate_file(""))
    except Exception:
        pass
    try:
        direct = dist.read_text("direct_url.json")
        if direct:
            d = json.loads(direct)
            info["editable"] = bool((d.get("dir_info") or {}).get("editable"))
            info["url"] = d.get("url")
    except Exception:
        pass
    return info

def _error(exc):
    out = {"error_type": type(exc).__name__, "error": str(exc)[:2000]}
    if isinstance(exc, ImportError):
        out["missing"] = getattr(exc, "name", None)
    tb = traceback.extract_tb(sys.exc_info()[2])
    if tb:
        out["where"] = "%s:%s" % (tb[-1][0], tb[-1][1])
    return out
""".replace("MARKER", repr(MARKER))

INVENTORY = (
    _PREAMBLE
    + r"""
import re
py = {
    "version": list(sys.version_info[:3]), "release": sys.version.split()[0],
    "implementation": platform.python_implementation(), "executable": sys.executable,
    "prefix": sys.prefix, "base_prefix": getattr(sys, "base_prefix", getattr(sys, "real_prefix", sys.prefix)),
    "virtual_env": os.environ.get("VIRTUAL_ENV"), "conda_env": os.environ.get("CONDA_DEFAULT_ENV"),
    "conda_prefix": os.environ.get("CONDA_PREFIX"), "platform": sys.platform, "machine": platform.machine(),
}
names = list(NAMES)
dists = {}
verl = _dist("verl")
if verl is not None:
    info = _dist_info(verl)
    info["requires"] = list(verl.requires or [])
    dists["verl"] = info
    for req in info["requires"]:
        m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
        if m and ";" not in req and m.group(1) not in names:
            names.append(m.group(1))
for name in names:
    if name != "verl":
        d = _dist(name)
        if d is not None:
            dists[name] = _dist_info(d)
_emit({"python": py, "dists": dists, "metadata": _md is not None})
""".replace("NAMES", repr(DISTRIBUTIONS))
)

VERL = (
    _PREAMBLE
    + r"""
res = {"cwd": os.getcwd()}
d = _dist("verl")
if d is not None:
    res["dist"] = _dist_info(d)
here = os.path.join(os.getcwd(), "verl")
res["cwd_verl"] = {"exists": os.path.isdir(here),
                   "has_init": os.path.isfile(os.path.join(here, "__init__.py")),
                   "inner_package": os.path.isfile(os.path.join(here, "verl", "__init__.py"))}
_restore()
spec = None
try:
    spec = _iu.find_spec("verl")
except Exception as exc:
    res["spec_error"] = _error(exc)
res["found"] = spec is not None
if spec is not None:
    res["origin"] = spec.origin
    res["locations"] = list(spec.submodule_search_locations or [])
    res["namespace"] = spec.origin in (None, "namespace")
    try:
        import verl
        res["import_ok"] = True
        version = getattr(verl, "__version__", None)
        res["version"] = None if version is None else str(version)
        res["file"] = getattr(verl, "__file__", None)
    except BaseException as exc:
        res["import_ok"] = False
        res.update(_error(exc))
_emit(res)
"""
)

TORCH = (
    _PREAMBLE
    + r"""
_restore()
res = {}
try:
    spec = _iu.find_spec("torch")
except Exception:
    spec = None
res["installed"] = spec is not None
if spec is not None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            import torch
            res["import_ok"] = True
            res["version"] = str(torch.__version__)
            res["file"] = getattr(torch, "__file__", None)
            res["cuda"] = getattr(torch.version, "cuda", None)
            res["hip"] = getattr(torch.version, "hip", None)
            res["available"] = bool(torch.cuda.is_available())
            res["count"] = int(torch.cuda.device_count()) if res["available"] else 0
            try:
                res["arch_list"] = [str(a) for a in torch.cuda.get_arch_list()]
            except Exception as exc:
                res["arch_list"] = []
                res["arch_error"] = str(exc)[:300]
            res["devices"] = []
            for i in range(res["count"]):
                cap = torch.cuda.get_device_capability(i)
                res["devices"].append({"index": i, "name": str(torch.cuda.get_device_name(i)),
                                       "capability": [int(cap[0]), int(cap[1])]})
        except BaseException as exc:
            res["import_ok"] = res.get("import_ok", False)
            res["failed_step"] = "import" if not res["import_ok"] else "cuda"
            res.update(_error(exc))
    res["warnings"] = [str(w.message)[:600] for w in caught][:5]
_emit(res)
"""
)

# argv: top-level module to look for, module to import.
IMPORT_MODULE = (
    _PREAMBLE
    + r"""
top, name = sys.argv[1], sys.argv[2]
_restore()
try:
    spec = _iu.find_spec(top)
except Exception:
    spec = None
if spec is None:
    _emit({"installed": False})
else:
    try:
        mod = importlib.import_module(name)
        _emit({"installed": True, "ok": True, "file": getattr(mod, "__file__", None)})
    except BaseException as exc:
        out = {"installed": True, "ok": False}
        out.update(_error(exc))
        _emit(out)
"""
)
