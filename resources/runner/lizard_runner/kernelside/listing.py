# Sent as text and run in the kernel (never imported by the runner), silently: no execution count,
# no history, no outputs. Compiled once per kernel and kept on the shell object, so only the one
# top-level definition belongs here. It lists the user's variables with their type, shape or
# length, size and a short preview. User-defined functions and classes are listed, imported ones
# (like modules) are not. Every variable's description runs under a 50 ms interval timer (main
# thread only), so a repr that hangs or raises costs one row its preview, never the listing;
# reprlib keeps big containers cheap to preview.


def _lz_listing(want, limit):
    import itertools, json, reprlib, signal, sys, threading, time, types
    from IPython import get_ipython
    ip = get_ipython()
    ns, hidden = ip.user_ns, set(ip.user_ns_hidden)

    class Slow(BaseException):  # not caught by the "except Exception" around one row
        pass

    armed = [False]  # only while a row is described: a late signal must not hit anything else

    def on_alarm(*_):
        if armed[0]:
            armed[0] = False
            raise Slow()

    def size(v):
        mod = type(v).__module__ or ""
        if mod.startswith("pandas") and hasattr(v, "memory_usage"):
            u = v.memory_usage(deep=False)
            return int(u.sum()) if hasattr(u, "sum") else int(u)
        n = getattr(v, "nbytes", None)
        return int(n) if isinstance(n, int) else sys.getsizeof(v)

    def shape(v):
        s = getattr(v, "shape", None)
        if isinstance(s, tuple) and not isinstance(v, type):
            return " \u00d7 ".join(str(x) for x in s) or "scalar"
        if isinstance(v, (str, bytes, bytearray, list, tuple, dict, set, frozenset, range)) or (
                hasattr(type(v), "__len__") and not isinstance(v, type)):
            return "len %d" % len(v)
        return ""

    short = reprlib.Repr()
    short.maxstring, short.maxother, short.maxlevel = 120, 120, 2

    def head(v):
        # The first items only: reprlib would sort a whole dict or set first.
        if isinstance(v, dict):
            items = ["%s: %s" % (short.repr(k), short.repr(x)) for k, x in itertools.islice(v.items(), 8)]
        else:
            items = [short.repr(x) for x in itertools.islice(v, 8)]
        body = ", ".join(items) + (", \u2026" if len(v) > 8 else "")
        if isinstance(v, list):
            return "[%s]" % body
        if isinstance(v, tuple):
            return "(%s%s)" % (body, "," if len(v) == 1 else "")
        if isinstance(v, (dict, set)) and v:
            return "{%s}" % body
        return "%s({%s})" % (type(v).__name__, body) if v else "%s()" % type(v).__name__

    def preview(v):
        if type(v) in (list, tuple, dict, set, frozenset):
            r = head(v)
        elif isinstance(v, (str, bytes)):
            r = short.repr(v)
        elif type(v).__module__ == "numpy" and getattr(v, "size", 0) > 8 and hasattr(v, "flat"):
            # numpy's repr formats up to 1000 items to align them: the first few say enough.
            f = (lambda x: ("%.6g" % x) + ("" if set(".en") & set("%.6g" % x) else ".")) \
                if v.dtype.kind == "f" else short.repr
            r = "array([%s, \u2026], dtype=%s)" % (", ".join(f(x) for x in v.flat[:6].tolist()), v.dtype)
        elif (type(v).__module__ or "").startswith("pandas") and hasattr(v, "columns"):
            # A table's repr spans lines that make no sense joined: its columns say more.
            r = "columns: " + ", ".join(str(c) for c in itertools.islice(v.columns, 12))
        else:
            r = repr(v)
        r = " ".join(r[:4 * limit].split())
        return r if len(r) <= limit else r[:limit - 1] + "\u2026"

    def listed(k, v):
        if k.startswith("_") or k in hidden or isinstance(v, types.ModuleType):
            return False
        if isinstance(v, (type, types.FunctionType, types.BuiltinFunctionType)):
            return getattr(v, "__module__", None) == "__main__"
        return True

    def describe(k, v):
        row = {"name": k, "type": type(v).__name__, "shape": "", "size": -1, "preview": ""}
        mod = type(v).__module__
        if mod not in (None, "builtins", "__main__"):
            row["type"] = mod.split(".")[0] + "." + type(v).__qualname__
        try:
            armed[0] = True
            if timed:
                signal.setitimer(signal.ITIMER_REAL, 2.0 if want is not None else 0.05)
            try:
                row["size"], row["shape"] = size(v), shape(v)
            except Exception:
                pass  # the preview below says what is wrong with the object, if anything
            if want is not None:
                r = repr(v)
                row["repr"] = r if len(r) <= limit else r[:limit] + "\n\u2026 (%d more characters)" % (len(r) - limit)
            else:
                row["preview"] = preview(v)
        except Exception as e:
            row["preview"] = row["repr"] = "(repr failed: %s: %s)" % (type(e).__name__, e)
        finally:
            armed[0] = False
            if timed:
                signal.setitimer(signal.ITIMER_REAL, 0)
        return row

    timed = threading.current_thread() is threading.main_thread()
    if timed:
        old = signal.signal(signal.SIGALRM, on_alarm)
        left = signal.setitimer(signal.ITIMER_REAL, 0)
    rows, start = [], time.time()
    try:
        for k in ([want] if want is not None else sorted(ns)):
            if k not in ns or not listed(k, ns[k]):
                continue
            v = ns[k]
            if want is None and time.time() - start > 3.0:
                rows.append({"name": k, "type": type(v).__name__, "shape": "", "size": -1,
                             "preview": "(not read: the listing took too long)"})
                continue
            try:
                row = describe(k, v)
            except Slow:  # raised wherever the row was: in its repr, or in an except or finally
                row = {"name": k, "type": type(v).__name__, "shape": "", "size": -1,
                       "preview": "(repr took too long)", "repr": "(repr took too long)"}
            if want is None:
                row.pop("repr", None)
            rows.append(row)
    finally:
        if timed:
            signal.signal(signal.SIGALRM, old)
            if left[0] > 0:
                signal.setitimer(signal.ITIMER_REAL, *left)
    return json.dumps(rows)
