#!/usr/bin/env python3
"""Compares two ssmcheck results JSON files: prints every value that differs, every field that
was removed, and the fields that are new (allowed). Exits 1 when something old changed or went.

usage: scripts/json_unchanged.py OLD.json NEW.json [--ignore KEY ...]

Each claim's `seconds` (a measurement of the run, not a result) is always ignored.
"""
import json
import sys


def walk(old, new, path, out):
    if isinstance(old, dict) and isinstance(new, dict):
        for k in old:
            if k not in new:
                out["removed"].append(f"{path}/{k}")
            else:
                walk(old[k], new[k], f"{path}/{k}", out)
        for k in new:
            if k not in old:
                out["added"].add(k)
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new)):
            walk(a, b, f"{path}[{i}]", out)
    elif old != new:
        out["changed"].append(f"{path}: {json.dumps(old)[:120]} -> {json.dumps(new)[:120]}")


def main():
    args = sys.argv[1:]
    ignore = {"seconds"}
    if "--ignore" in args:
        i = args.index("--ignore")
        ignore |= set(args[i + 1:])
        args = args[:i]
    old, new = (json.load(open(p)) for p in args)
    out = {"removed": [], "changed": [], "added": set()}
    walk(old, new, "", out)
    changed = [c for c in out["changed"] if not any(f"/{k}" in c.split(":")[0] for k in ignore)]
    for line in out["removed"]:
        print("removed:", line)
    for line in changed:
        print("changed:", line)
    print("new fields:", ", ".join(sorted(out["added"])) or "none")
    print(f"{len(out['removed'])} removed, {len(changed)} changed")
    sys.exit(1 if out["removed"] or changed else 0)


if __name__ == "__main__":
    main()
