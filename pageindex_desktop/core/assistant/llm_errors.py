"""Typed model errors, each with one sentence for the user, and the mapping from the openai client's exceptions."""

from __future__ import annotations

from urllib.parse import urlparse

import openai

from pageindex_desktop.core.errors import PageIndexError


class ModelError(PageIndexError):
    """Base of every failure talking to the model endpoint."""

    retryable = False


class NoModelConfigured(ModelError):
    """No endpoint or chat model is set up, so there is nothing to ask."""


class WrongApiKey(ModelError):
    """The endpoint refused the API key (HTTP 401/403)."""


class UnknownModel(ModelError):
    """The endpoint does not know the configured model name (HTTP 404)."""


class RateLimited(ModelError):
    """HTTP 429 persisted through every retry."""

    retryable = True


class ServerError(ModelError):
    """The endpoint answered with a 5xx error."""

    retryable = True


class ModelTimeout(ModelError):
    """No answer within the configured timeout."""

    retryable = True


class ConnectionFailed(ModelError):
    """Nothing answered at the endpoint's address (refused, DNS, network down)."""

    retryable = True


class LimitReached(ModelError):
    """A bound of the assistant's own was reached (time for a turn or a question, answer length, token budget);
    the message says which and what to change. Not retried: the same request would hit it again."""


class ContextTooLong(ModelError):
    """The conversation no longer fits the model's context window."""


class ToolsNotSupported(ModelError):
    """The model cannot call tools, which the assistant needs to read documents."""


class MalformedStream(ModelError):
    """The streamed answer broke off or could not be understood."""


class RequestRejected(ModelError):
    """Any other 4xx refusal, with the server's own words."""


def _hint(url: str) -> str:
    """What to check when nothing answers at `url`."""
    port = urlparse(url).port
    if port == 11434:
        return "Is Ollama running?"
    if port == 1234:
        return "Is LM Studio's local server running?"
    if urlparse(url).hostname in ("127.0.0.1", "localhost", "::1"):
        return "Is the local model server running?"
    return "Check the URL in Model settings and your network connection."


def server_message(exc: openai.APIStatusError) -> str:
    """The endpoint's own error text, without the client's 'Error code: N -' prefix."""
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
        if isinstance(inner, str):
            return inner
        if body.get("message"):
            return str(body["message"])
    if isinstance(body, str) and body.strip():
        return body.strip()[:300]
    return str(exc.message)


def _code(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            return str(inner.get("code") or "")
    return ""


def map_error(exc: BaseException, base_url: str, model: str) -> ModelError:
    """Turn an openai/httpx exception into a typed ModelError whose message is one clear sentence."""
    if isinstance(exc, ModelError):
        return exc
    if isinstance(exc, openai.APITimeoutError):
        return ModelTimeout(f"The model at {base_url} did not answer in time; try again or raise the timeout.")
    if isinstance(exc, openai.APIConnectionError):
        return ConnectionFailed(f"Could not reach the model at {base_url}. {_hint(base_url)}")
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        said = server_message(exc)
        lowered = (said + " " + _code(exc)).lower()
        if status in (401, 403):
            return WrongApiKey(f"The endpoint {base_url} refused the API key ({status}); check the key in Model settings.")
        if status == 404:
            return UnknownModel(f"The endpoint does not know the model '{model}'; pick one from its model list.")
        if status == 429:
            return RateLimited("The endpoint is rate limiting requests (429) and retries did not help; wait a minute and ask again.")
        if status >= 500:
            return ServerError(f"The model server had an internal error ({status}); try again in a moment.")
        if "context_length" in lowered or "context length" in lowered or "too many tokens" in lowered or (
            "maximum" in lowered and "tokens" in lowered
        ):
            return ContextTooLong("The conversation is too long for the model's context window; start a new chat or narrow the question.")
        if "tool" in lowered or "function call" in lowered:
            return ToolsNotSupported(f"The model '{model}' does not support tool calls, which the assistant needs; choose a model with tool support.")
        return RequestRejected(f"The endpoint rejected the request ({status}): {said[:200]}")
    return MalformedStream(f"The model's answer could not be read ({type(exc).__name__}); try again.")
