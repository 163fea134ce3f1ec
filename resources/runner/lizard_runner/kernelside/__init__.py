# Code that runs in the kernel (or beside it), kept as real modules so that linters and tests see
# it; the runner sends their source text. The text comes from the module's loader, so it is the
# same whether the package runs from the source tree or from the bundled artefact.
import functools
import importlib.util


@functools.lru_cache(maxsize=None)
def source(module: str) -> str:
    """The source text of kernelside.<module>."""
    spec = importlib.util.find_spec(__name__ + "." + module)
    text = spec.loader.get_source(spec.name) if spec is not None and spec.loader is not None else None
    if text is None:
        raise ImportError("no source for %s.%s" % (__name__, module))
    return text


def function_source(text: str, name: str) -> str:
    """The top-level `def name(...)` of a module's text: its lines up to the next top-level line."""
    lines = text.splitlines(True)
    start = next(i for i, line in enumerate(lines) if line.startswith("def %s(" % name))
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t"):
        end += 1
    return "".join(lines[start:end]).rstrip("\n") + "\n"
