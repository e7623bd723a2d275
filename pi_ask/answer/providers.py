"""Known OpenAI-compatible providers, and which configured extraction model can be used.

A model entry names a provider and a model id; the provider supplies the API address and the
environment variable holding the key unless the entry gives its own ``base_url`` or
``api_key_env``. Local servers (Ollama, LM Studio) need no key.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pi_ask.config.settings import ModelEntry


@dataclass(frozen=True, slots=True)
class Provider:
    """Defaults of one provider: its API address and its key's environment variable."""

    base_url: str
    api_key_env: str | None


PROVIDERS: Mapping[str, Provider] = {
    "openai": Provider("https://api.openai.com/v1", "OPENAI_API_KEY"),
    "openrouter": Provider("https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
    "anthropic": Provider("https://api.anthropic.com/v1/", "ANTHROPIC_API_KEY"),
    "gemini": Provider(
        "https://generativelanguage.googleapis.com/v1beta/openai/", "GEMINI_API_KEY"
    ),
    "groq": Provider("https://api.groq.com/openai/v1", "GROQ_API_KEY"),
    "mistral": Provider("https://api.mistral.ai/v1", "MISTRAL_API_KEY"),
    "deepseek": Provider("https://api.deepseek.com/v1", "DEEPSEEK_API_KEY"),
    "xai": Provider("https://api.x.ai/v1", "XAI_API_KEY"),
    "together": Provider("https://api.together.xyz/v1", "TOGETHER_API_KEY"),
    "fireworks": Provider("https://api.fireworks.ai/inference/v1", "FIREWORKS_API_KEY"),
    "ollama": Provider("http://localhost:11434/v1", None),
    "lmstudio": Provider("http://localhost:1234/v1", None),
}


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A model ready to call: where, which model, and the key (``None`` for local servers)."""

    provider: str
    model: str
    base_url: str
    api_key: str | None

    @property
    def name(self) -> str:
        """``provider/model``, as messages show it."""
        return f"{self.provider}/{self.model}"


def resolve(entry: ModelEntry, environ: Mapping[str, str] | None = None) -> Endpoint | None:
    """The endpoint of a configured model, or ``None`` when its address or key is missing."""
    env = os.environ if environ is None else environ
    known = PROVIDERS.get(entry.provider.lower())
    base_url = entry.base_url or (known.base_url if known else None)
    key_env = entry.api_key_env or (known.api_key_env if known else None)
    if base_url is None:
        return None
    if key_env is None:
        return Endpoint(entry.provider, entry.id, base_url, None)
    key = env.get(key_env)
    return Endpoint(entry.provider, entry.id, base_url, key) if key else None


def first_usable(
    entries: Iterable[ModelEntry], environ: Mapping[str, str] | None = None
) -> Endpoint | None:
    """The first configured model that has an address and, when it needs one, a key."""
    for entry in entries:
        endpoint = resolve(entry, environ)
        if endpoint is not None:
            return endpoint
    return None
