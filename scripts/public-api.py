#!/usr/bin/env python3
"""The public API of the `vksync` crate as a sorted list, one item a line.

Reads the rustdoc JSON of the crate (`cargo rustdoc -p vksync --features
ash -- -Z unstable-options --output-format json`, made by
scripts/public-api.sh) and walks the public modules from the crate root:
modules, re-exports, types, functions, enum variants, public fields, and the
inherent associated items of public types. Trait impls are left out (a
derive changing is not a surface change a user writes against), and so are
signatures: the list catches an item added, removed, renamed or moved, not
a changed parameter (the compiler catches those in the crate's own users).

Usage: public-api.py JSON > LIST
"""
import json
import sys


def main() -> None:
    doc = json.load(open(sys.argv[1]))
    index = doc["index"]
    out: set[str] = set()

    def kind(item: dict) -> str:
        return next(iter(item["inner"]))

    def members(item: dict, path: str) -> None:
        k = kind(item)
        inner = item["inner"][k]
        if k == "enum":
            for v in inner["variants"]:
                out.add(f"variant {path}::{index[str(v)]['name']}")
        if k == "struct" and isinstance(inner["kind"], dict) and "plain" in inner["kind"]:
            for f in inner["kind"]["plain"]["fields"]:
                field = index[str(f)]
                if field["visibility"] == "public":
                    out.add(f"field {path}.{field['name']}")
        for i in inner.get("impls", []) if k in ("struct", "enum", "union") else []:
            imp = index.get(str(i))
            if not imp:
                continue
            body = imp["inner"]["impl"]
            if body.get("trait") is not None or body.get("is_synthetic"):
                continue
            for m in body["items"]:
                item_m = index.get(str(m))
                if item_m and item_m["visibility"] == "public":
                    out.add(f"{kind(item_m)} {path}::{item_m['name']}")

    def walk(module_id: int, path: str, seen: set) -> None:
        if module_id in seen or str(module_id) not in index:
            return
        seen.add(module_id)
        for c in index[str(module_id)]["inner"]["module"]["items"]:
            child = index.get(str(c))
            if child is None or child["visibility"] != "public":
                continue
            k = kind(child)
            if k == "use":
                use = child["inner"]["use"]
                name, target = use["name"], use.get("id")
                if target is None or str(target) not in index:
                    out.add(f"use {path}::{name}")
                    continue
                item, child_id, k = index[str(target)], target, kind(index[str(target)])
            else:
                name, item, child_id = child["name"], child, c
            out.add(f"{k} {path}::{name}")
            if k == "module":
                walk(child_id, f"{path}::{name}", seen)
            else:
                members(item, f"{path}::{name}")

    walk(doc["root"], "vksync", set())
    sys.stdout.write("".join(f"{line}\n" for line in sorted(out)))


if __name__ == "__main__":
    main()
