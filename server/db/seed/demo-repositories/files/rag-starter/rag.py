"""A minimal RAG pipeline: chunk Markdown notes, rank chunks with BM25, build a grounded prompt."""

from __future__ import annotations

import math
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

MAX_WORDS = 120
TOKEN = re.compile(r"[a-z0-9]+")


@dataclass
class Chunk:
    source: str
    heading: str
    text: str


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text.lower())


def load_chunks(folder: Path) -> list[Chunk]:
    chunks: list[Chunk] = []
    for path in sorted(folder.glob("*.md")):
        heading = path.stem
        for section in re.split(r"^#+ ", path.read_text(encoding="utf-8"), flags=re.M):
            if not section.strip():
                continue
            title, _, body = section.partition("\n")
            heading = title.strip() or heading
            words = body.split()
            for start in range(0, len(words), MAX_WORDS):
                piece = " ".join(words[start : start + MAX_WORDS])
                if piece:
                    chunks.append(Chunk(path.name, heading, piece))
    return chunks


def bm25_scores(question: str, chunks: list[Chunk], k1: float = 1.5, b: float = 0.75) -> list[float]:
    docs = [tokens(c.heading + " " + c.text) for c in chunks]
    avg = sum(len(d) for d in docs) / max(len(docs), 1)
    df = Counter(term for d in docs for term in set(d))
    scores = []
    for d in docs:
        tf = Counter(d)
        score = 0.0
        for term in set(tokens(question)):
            if term not in tf:
                continue
            idf = math.log(1 + (len(docs) - df[term] + 0.5) / (df[term] + 0.5))
            score += idf * tf[term] * (k1 + 1) / (tf[term] + k1 * (1 - b + b * len(d) / avg))
        scores.append(score)
    return scores


def build_prompt(question: str, top: list[Chunk]) -> str:
    blocks = "\n\n".join(f"[{i}] ({c.source} › {c.heading})\n{c.text}" for i, c in enumerate(top, 1))
    return (
        "Answer the question using only the numbered sources below. Cite sources like [1].\n"
        'If the sources do not contain the answer, reply "I don\'t know".\n\n'
        f"{blocks}\n\nQuestion: {question}\nAnswer:"
    )


def main(argv: list[str]) -> int:
    question = " ".join(argv) or "How long do we keep support tickets?"
    chunks = load_chunks(Path(__file__).parent / "docs")
    ranked = sorted(zip(bm25_scores(question, chunks), chunks), key=lambda p: p[0], reverse=True)[:3]
    for score, chunk in ranked:
        print(f"{score:6.2f}  {chunk.source} › {chunk.heading}")
    print()
    print(build_prompt(question, [c for _, c in ranked]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
