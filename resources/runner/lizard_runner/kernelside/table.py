# Sent as text and run in the kernel as the module `_lizard_table` (never imported by the runner
# outside tests): an IPython formatter that adds MIME (a compact columnar JSON of a
# DataFrame/Series: shape, columns with dtypes, the first rows, a handle) to every display of a
# pandas DataFrame or Series, and `rows()`, which the `table_rows` action calls to page through a
# displayed frame, sorted in pandas on the kernel side.
# Handles keep frames reachable without pinning them: a weak reference for each, and strong
# references only for the KEEP most recent displays (so `df.sort_values(...)` as a cell's last
# expression still pages while it is recent). A frame the user keeps in a variable pages for as
# long as it lives. Handles name the kernel process (TOKEN), so a restarted kernel never answers
# for a frame of its predecessor.
import collections, itertools, math, os, weakref
MIME = "application/vnd.lizard.table+json"
FIRST, KEEP, MAX_ROWS, MAX_TEXT, MAX_CELLS = 200, 16, 5000, 1000, 20000
TOKEN = os.urandom(6).hex()
CONTEXT = None
_ids = itertools.count(1)
_weak = weakref.WeakValueDictionary()
_strong = collections.OrderedDict()
_orders = collections.OrderedDict()  # (handle, column, ascending) -> row positions, last 4 sorts


def _cell(v):
    if v is None or isinstance(v, (bool, int, str)):
        return v if not isinstance(v, str) or len(v) <= MAX_TEXT else v[:MAX_TEXT] + "\u2026"
    if isinstance(v, float):
        return v if math.isfinite(v) else ("NaN" if v != v else ("inf" if v > 0 else "-inf"))
    try:
        import numpy
        if isinstance(v, numpy.generic):
            return _cell(v.item())
    except ImportError:
        pass
    s = str(v)
    return s if len(s) <= MAX_TEXT else s[:MAX_TEXT] + "\u2026"


def _frame(obj):
    import pandas
    if isinstance(obj, pandas.Series):
        return obj.to_frame(name=obj.name if obj.name is not None else 0)
    return obj


def _kind(dtype):
    return getattr(dtype, "kind", "O")


def _page(df, positions):
    part = df.iloc[positions]
    return ([_cell(v) for v in part.index.tolist()],
            [[_cell(v) for v in part.iloc[:, i].tolist()] for i in range(part.shape[1])])


def _format(obj):
    df = _frame(obj)
    handle = "%s-%d" % (TOKEN, next(_ids))
    _weak[handle] = obj
    _strong[handle] = obj
    while len(_strong) > KEEP:
        _strong.popitem(last=False)
    # A wide frame sends fewer first rows: the output stays small, the app asks for the rest.
    index, data = _page(df, slice(0, max(1, min(FIRST, MAX_CELLS // max(1, df.shape[1])))))
    idx = df.index
    return {"version": 1, "handle": handle, "context": CONTEXT, "series": df is not obj,
            "shape": [int(df.shape[0]), int(df.shape[1])],
            "columns": [{"name": _cell(c) if not isinstance(c, tuple) else " / ".join(map(str, c)),
                         "dtype": str(t), "kind": _kind(t)} for c, t in zip(df.columns, df.dtypes)],
            "index": {"name": " / ".join(str(n) for n in idx.names if n is not None),
                      "dtype": str(idx.dtype), "kind": _kind(idx.dtype)},
            "start": 0, "index_values": index, "data": data}


def rows(handle, start, count, column=None, ascending=True):
    obj = _strong.get(handle)
    if obj is None:
        obj = _weak.get(handle)
    if obj is None:
        if not handle.startswith(TOKEN + "-"):
            raise LookupError("this table was shown by an earlier kernel, which is gone")
        raise LookupError("this table is no longer in the kernel's memory (only the %d most recent "
                          "displays and frames still in variables are kept)" % KEEP)
    df = _frame(obj)
    total = int(df.shape[0])
    start, count = max(0, int(start)), max(0, min(int(count), MAX_ROWS, MAX_CELLS // max(1, df.shape[1]) or 1))
    if column is None:
        positions = slice(start, min(total, start + count))
    else:
        key = (handle, int(column), bool(ascending))
        order = _orders.get(key)
        if order is None:
            s = df.index.to_series() if column < 0 else df.iloc[:, int(column)]
            s = s.reset_index(drop=True)
            try:
                order = s.sort_values(ascending=bool(ascending), kind="mergesort", na_position="last").index.to_numpy()
            except TypeError:  # mixed types in an object column: sort by their text
                order = s.astype(str).sort_values(ascending=bool(ascending), kind="mergesort").index.to_numpy()
            _orders[key] = order
            while len(_orders) > 4:
                _orders.popitem(last=False)
        _orders.move_to_end(key)
        positions = order[start:start + count]
    index, data = _page(df, positions)
    return {"handle": handle, "start": start, "rows": total, "index_values": index, "data": data}


def install(context):
    global CONTEXT
    CONTEXT = context
    from IPython import get_ipython
    from IPython.core.formatters import BaseFormatter
    from traitlets import ObjectName, Unicode
    ip = get_ipython()
    if ip is None or MIME in ip.display_formatter.formatters:
        return

    class TableFormatter(BaseFormatter):
        format_type = Unicode(MIME)
        print_method = ObjectName("_repr_lizard_table_")
        _return_type = (dict,)

    f = TableFormatter(parent=ip.display_formatter)
    def safe(obj):
        try:
            return _format(obj)
        except Exception:  # an odd frame: it still shows as HTML, with no error for the user
            return None

    f.for_type_by_name("pandas.core.frame", "DataFrame", safe)
    f.for_type_by_name("pandas.core.series", "Series", safe)
    ip.display_formatter.formatters[MIME] = f


# Also sent on its own by each table_for_variable request, into the kernel's `_lizard_table`
# module: a kernel that an older runner set up has the module without it. It registers a
# variable's frame as a display does, so table_rows pages through it with the handle it returns.
def for_variable(name):
    from IPython import get_ipython
    ns = get_ipython().user_ns
    if name not in ns:
        raise NameError("%s is not defined" % name)
    obj = ns[name]
    import pandas
    if not isinstance(obj, (pandas.DataFrame, pandas.Series)):
        raise TypeError("%s is of type %s, not a pandas DataFrame or Series" % (name, type(obj).__name__))
    return _format(obj)
