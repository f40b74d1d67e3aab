"""Clean a CSV export: snake_case headers, trimmed cells, no blank or duplicate rows, ISO dates."""

from __future__ import annotations

import argparse
import csv
import re
import sys
from dataclasses import dataclass, field
from datetime import datetime

DATE_FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%d %b %Y", "%B %d, %Y")


@dataclass
class Report:
    rows_read: int = 0
    blank_rows: int = 0
    duplicates: int = 0
    cells_trimmed: int = 0
    dates_normalised: int = 0
    dates_unparsed: list[str] = field(default_factory=list)
    rows_written: int = 0


def snake_case(header: str) -> str:
    header = re.sub(r"[^0-9a-zA-Z]+", "_", header.strip()).strip("_")
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", header).lower()


def is_date_column(name: str) -> bool:
    return name.endswith("_date") or name.endswith("_at")


def normalise_date(value: str) -> str | None:
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(value, fmt).date().isoformat()
        except ValueError:
            continue
    return None


def tidy(rows: list[list[str]]) -> tuple[list[list[str]], Report]:
    report = Report()
    if not rows:
        return [], report
    header = [snake_case(h) for h in rows[0]]
    date_columns = {i for i, name in enumerate(header) if is_date_column(name)}
    seen: set[tuple[str, ...]] = set()
    out = [header]
    for raw in rows[1:]:
        report.rows_read += 1
        row = []
        for cell in raw:
            trimmed = cell.strip()
            if trimmed != cell:
                report.cells_trimmed += 1
            row.append(trimmed)
        if all(cell == "" for cell in row):
            report.blank_rows += 1
            continue
        for i in date_columns:
            if i < len(row) and row[i]:
                iso = normalise_date(row[i])
                if iso is None:
                    report.dates_unparsed.append(row[i])
                elif iso != row[i]:
                    row[i] = iso
                    report.dates_normalised += 1
        key = tuple(row)
        if key in seen:
            report.duplicates += 1
            continue
        seen.add(key)
        out.append(row)
    report.rows_written = len(out) - 1
    return out, report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("source")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    with open(args.source, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    cleaned, report = tidy(rows)
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(cleaned)
    print(f"rows read:          {report.rows_read}")
    print(f"blank rows dropped: {report.blank_rows}")
    print(f"duplicates dropped: {report.duplicates}")
    print(f"cells trimmed:      {report.cells_trimmed}")
    print(f"dates normalised:   {report.dates_normalised}")
    if report.dates_unparsed:
        print(f"dates unparsed:     {', '.join(report.dates_unparsed)}")
    print(f"rows written:       {report.rows_written}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
