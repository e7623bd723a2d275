"""The form of ``pi-ask answer``: which extractor runs, and the fallback to the offline one.

``extractor = "auto"`` uses the first configured model that has an address and its key, and
the offline extractor otherwise; ``"model"`` insists on a model; ``"offline"`` never calls
one. A model that fails after its retries falls back to offline with a notice.
"""

from __future__ import annotations

from collections.abc import Callable

from pi_ask.answer.extraction import ExtractionError, ExtractorUnavailable
from pi_ask.answer.model_extractor import ModelRun, extract_with_model
from pi_ask.answer.offline_extractor import extract_offline
from pi_ask.answer.providers import first_usable
from pi_ask.answer.source import AssistantMessage
from pi_ask.config.settings import AnswerSettings
from pi_ask.contract.kinds import JsonObject

NO_MODEL = (
    "No available extraction model. Configure answer.extraction_models and set the API key "
    'variable its provider needs, or use extractor = "offline".'
)


def extract_form(
    message: AssistantMessage, settings: AnswerSettings, *, notify: Callable[[str], None]
) -> JsonObject:
    """``ask_user`` arguments for the questions of ``message``.

    Args:
        message: the assistant message and its context.
        settings: the ``[answer]`` settings.
        notify: receives progress and fallback notices.

    Raises:
        ExtractorUnavailable: ``extractor = "model"`` and no model can be called.
    """
    if settings.extractor == "offline":
        return extract_offline(message.text)
    endpoint = first_usable(settings.extraction_models)
    if endpoint is None:
        if settings.extractor == "model":
            raise ExtractorUnavailable(NO_MODEL)
        return extract_offline(message.text)
    run = ModelRun(endpoint, settings.extraction_timeout_ms, settings.extraction_retries)
    try:
        return extract_with_model(message.text, message.previous_user_text, run, notify=notify)
    except ExtractorUnavailable as err:
        if settings.extractor == "model":
            raise
        notify(f"{err} Using the offline extractor.")
    except ExtractionError as err:
        notify(
            f"Question extraction with {endpoint.name} failed: {err} Using the offline extractor."
        )
    return extract_offline(message.text)
