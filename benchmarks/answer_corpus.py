"""How many messages of the ``pi-ask answer`` corpus each extractor reads exactly right.

    uv run python benchmarks/answer_corpus.py            # offline, and the configured model
    uv run python benchmarks/answer_corpus.py --offline  # offline only

The model extractor runs only when ``[answer]`` names a model whose API key is set (the same
rule as ``pi-ask answer``); a reply that fails after its retries counts as wrong. Prints one
Markdown table row per extractor, and each case it got wrong.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pi_ask.contract.kinds import JsonObject  # noqa: E402
from tests.answer.corpus import invented, load_corpus, score  # noqa: E402

Extract = Callable[[str], JsonObject]


def model_extractor() -> tuple[str, Extract] | None:
    """The configured model as an extractor, or None when no model can be called."""
    from pi_ask.answer.extraction import ExtractionError
    from pi_ask.answer.model_extractor import ModelRun, extract_with_model
    from pi_ask.answer.providers import first_usable
    from pi_ask.config.store import open_store

    settings = open_store(None).snapshot().answer
    endpoint = first_usable(settings.extraction_models)
    if endpoint is None:
        return None
    run = ModelRun(endpoint, settings.extraction_timeout_ms, settings.extraction_retries)

    def extract(text: str) -> JsonObject:
        try:
            return extract_with_model(text, None, run, notify=lambda _note: None)
        except ExtractionError:
            return {"questions": []}

    return f"model {endpoint.name}", extract


def row(name: str, extract: Extract) -> tuple[str, list[str]]:
    """The table row for one extractor, and its report of wrong cases."""
    cases = load_corpus()
    right, report = score(extract)
    made_up = sum(len(invented(case, extract(case.message))) for case in cases)
    share = 100 * right / len(cases)
    return f"| {name} | {right} / {len(cases)} | {share:.1f}% | {made_up} |", report


def quoted_row(name: str, extract: Extract) -> str:
    """The row for the messages real agents wrote (the cases that name a thread)."""
    from tests.answer.corpus import differences

    quoted = [case for case in load_corpus() if case.source]
    right = sum(not differences(case, extract(case.message)) for case in quoted)
    share = 100 * right / len(quoted) if quoted else 0.0
    made_up = sum(len(invented(case, extract(case.message))) for case in quoted)
    return f"| {name}, real agents' messages | {right} / {len(quoted)} | {share:.1f}% | {made_up} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--offline", action="store_true", help="measure the offline extractor only")
    args = parser.parse_args()
    from pi_ask.answer.offline_extractor import extract_offline

    extractors: list[tuple[str, Extract]] = [("offline", extract_offline)]
    if not args.offline and (model := model_extractor()) is not None:
        extractors.append(model)
    print("| extractor | exactly right | accuracy | invented options |")
    print("|---|---|---|---|")
    reports = []
    for name, extract in extractors:
        line, report = row(name, extract)
        print(line)
        reports.append((name, report))
        print(quoted_row(name, extract))
    for name, report in reports:
        for problem in report:
            print(f"- {name}: {problem}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
