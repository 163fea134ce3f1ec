# Sent as text and run in the kernel's user namespace (never imported by the runner): pickles the
# user's variables with dill (all together, so shared references stay shared), skipping IPython's
# own names and what cannot be pickled, or loads such a file. The runner appends the call and
# deletes both functions afterwards, so only top-level definitions belong here.


def _lz_kind(v):
    import io, socket, types
    if isinstance(v, types.ModuleType):
        return "a module: import it again"
    if isinstance(v, io.IOBase):
        return "an open file: open it again"
    if isinstance(v, socket.socket):
        return "a socket: connect again"
    if isinstance(v, (types.GeneratorType, types.AsyncGeneratorType, types.CoroutineType)):
        return "a generator: its progress cannot be saved"
    return None


def _lz_variables(action, path, names, strict):
    import dill, json, os
    from IPython import get_ipython
    ip = get_ipython()
    ns, hidden = ip.user_ns, set(ip.user_ns_hidden)
    if action == "load":
        with open(path, "rb") as f:
            data = dill.load(f)
        if not isinstance(data, dict) or data.get("format") != "lizard-variables/1":
            raise ValueError("%s is not a file of saved variables" % path)
        ns.update(data["variables"])
        return json.dumps({"loaded": sorted(data["variables"])})
    chosen = names if names is not None else [k for k in ns if not k.startswith("_") and k not in hidden]
    keep, skipped = {}, []
    for k in chosen:
        if k not in ns:
            skipped.append({"name": k, "reason": "not defined"})
            continue
        why = _lz_kind(ns[k]) if strict else None
        if why:
            skipped.append({"name": k, "reason": why})
            continue
        try:
            dill.dumps(ns[k])
            keep[k] = ns[k]
        except Exception as e:
            skipped.append({"name": k, "reason": "%s: %s" % (type(e).__name__, e)})
    tmp = path + ".tmp-lizard"
    with open(tmp, "wb") as f:
        dill.dump({"format": "lizard-variables/1", "variables": keep}, f)
    os.replace(tmp, path)
    return json.dumps({"saved": sorted(keep), "skipped": skipped})
