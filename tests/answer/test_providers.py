from __future__ import annotations

from pi_ask.answer.providers import Endpoint, first_usable, resolve
from pi_ask.config.settings import ModelEntry


def test_known_providers_supply_address_and_key_variable() -> None:
    env = {"OPENROUTER_API_KEY": "sk-or"}
    assert resolve(ModelEntry("openrouter", "x/y"), env) == Endpoint(
        "openrouter", "x/y", "https://openrouter.ai/api/v1", "sk-or"
    )
    assert resolve(ModelEntry("openai", "gpt"), env) is None


def test_entries_may_name_their_own_address_and_key_variable() -> None:
    entry = ModelEntry("corp", "m", base_url="http://llm.internal/v1", api_key_env="CORP_KEY")
    assert resolve(entry, {}) is None
    assert resolve(entry, {"CORP_KEY": "k"}) == Endpoint("corp", "m", "http://llm.internal/v1", "k")
    assert resolve(ModelEntry("unknown", "m"), {"X": "y"}) is None


def test_local_servers_need_no_key_and_the_first_usable_entry_wins() -> None:
    entries = (ModelEntry("openai", "gpt"), ModelEntry("ollama", "llama3"), ModelEntry("groq", "g"))
    found = first_usable(entries, {"GROQ_API_KEY": "k"})
    assert found == Endpoint("ollama", "llama3", "http://localhost:11434/v1", None)
    assert found.name == "ollama/llama3"
    assert first_usable((), {}) is None
