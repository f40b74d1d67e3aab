"""Chunking with overlap: each chunk repeats the last words of the previous one, so an answer that
spans a boundary still lands whole in at least one chunk.

    python chunk_overlap.py docs/retention.md --size 60 --overlap 15
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def overlapping_chunks(words: list[str], size: int, overlap: int) -> list[str]:
    if size <= 0 or not 0 <= overlap < size:
        raise ValueError("need size > 0 and 0 <= overlap < size")
    step = size - overlap
    chunks = []
    for start in range(0, len(words), step):
        chunks.append(" ".join(words[start : start + size]))
        if start + size >= len(words):
            break
    return chunks


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file", type=Path)
    parser.add_argument("--size", type=int, default=120)
    parser.add_argument("--overlap", type=int, default=20)
    args = parser.parse_args(argv)
    words = args.file.read_text(encoding="utf-8").split()
    for i, chunk in enumerate(overlapping_chunks(words, args.size, args.overlap), 1):
        print(f"--- chunk {i} ({len(chunk.split())} words)\n{chunk}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
