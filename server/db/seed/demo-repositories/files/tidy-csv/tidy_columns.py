"""Column rules for tidy-csv: drop columns nobody needs and rename the ones people misspell.

    python tidy_columns.py customers.clean.csv --drop internal_notes --rename e_mail=email
"""

from __future__ import annotations

import argparse
import csv
import sys


def apply_rules(rows: list[list[str]], drop: set[str], rename: dict[str, str]) -> list[list[str]]:
    if not rows:
        return rows
    header = rows[0]
    keep = [i for i, name in enumerate(header) if name not in drop]
    out = [[rename.get(header[i], header[i]) for i in keep]]
    out.extend([row[i] if i < len(row) else "" for i in keep] for row in rows[1:])
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("source")
    parser.add_argument("--drop", action="append", default=[])
    parser.add_argument("--rename", action="append", default=[], help="old=new")
    args = parser.parse_args(argv)
    rename = dict(pair.split("=", 1) for pair in args.rename)
    with open(args.source, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    csv.writer(sys.stdout).writerows(apply_rules(rows, set(args.drop), rename))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
