# Contexts on disk, shared with the SDK's runner: <root>/<id>/meta.json and the files beside it.
import json
import os
import threading
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from .protocol import LANGS, ROOT, SAFE_ID, RunnerError


@dataclass
class Context:
    """One context's meta.json. `extra` keeps the rest of the file (our "count" of bash/javascript
    runs, whatever the SDK wrote) so that saving it back loses nothing."""
    id: str
    language: str
    cwd: str
    extra: Dict[str, Any] = field(default_factory=dict)

    @property
    def dir(self) -> str:
        return ctx_dir(self.id)

    def path(self, name: str) -> str:
        return os.path.join(ctx_dir(self.id), name)

    def public(self) -> Dict[str, str]:
        return {"id": self.id, "language": self.language, "cwd": self.cwd}

    def to_json(self) -> str:
        return json.dumps(dict(self.public(), **self.extra))

    def save(self) -> None:
        os.makedirs(self.dir, exist_ok=True)
        write_atomic(self.path("meta.json"), self.to_json())


def ctx_dir(cid: str) -> str:
    return os.path.join(ROOT, cid)


def write_atomic(path: str, text: str) -> None:
    tmp = os.path.join(os.path.dirname(path), ".%s.tmp-%d-%d" % (os.path.basename(path), os.getpid(),
                                                                   threading.get_ident()))
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def load_context(cid: str) -> Optional[Context]:
    try:
        with open(os.path.join(ctx_dir(cid), "meta.json")) as f:
            m = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(m, dict) or m.get("language") not in LANGS or not isinstance(m.get("cwd"), str):
        return None
    extra = {k: v for k, v in m.items() if k not in ("id", "language", "cwd")}
    return Context(cid, m["language"], m["cwd"], extra)


def existing(cid: str) -> Context:
    m = load_context(cid)
    if m is None:
        raise RunnerError("context %r not found" % cid)
    return m


def new_context(cid: str, lang: str, cwd: Any) -> Context:
    cwd = cwd or "/home/user"
    if not isinstance(cwd, str) or not cwd.startswith("/"):
        raise RunnerError("cwd must be an absolute path")
    m = Context(cid, lang, cwd)
    m.save()
    return m


def list_contexts() -> List[Dict[str, str]]:
    out = []
    for name in sorted(os.listdir(ROOT)):
        if SAFE_ID.match(name) and not name.startswith("default-"):
            m = load_context(name)
            if m:
                out.append(m.public())
    return out


def has_kernel() -> bool:
    try:
        __import__("jupyter_client")
        __import__("ipykernel")
        return True
    except ImportError:
        return False
