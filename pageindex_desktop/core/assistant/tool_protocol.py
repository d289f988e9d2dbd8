"""The tools described in the prompt, for endpoints that refuse the `tools` field.

Some servers (older llama.cpp builds, gateways, models without a tool template) answer a request that carries
`tools` with a 400. The agent then describes the same tools in the system prompt with one strict text format,
sends the conversation without `tools` (tool calls as the assistant's text, tool results as user messages, which
every chat template accepts) and reads the calls back with `tool_text`. The mode is remembered on the client, so
the rest of the chat does not pay the refusal again.
"""

from __future__ import annotations

import json
from typing import Any

PROTOCOL = """
You can call these tools. To call one, reply with exactly one line and nothing else:
<tool_call>{{"name": "<tool name>", "arguments": {{...}}}}</tool_call>
The tool's result comes back in the next message; then call another tool or answer with citations.
Tools:
{tools}"""


def describe_tools(schemas: list[dict[str, Any]]) -> str:
    """One line a tool: name, arguments (required ones marked) and what it does."""
    lines = []
    for schema in schemas:
        function = schema["function"]
        params = function["parameters"]
        required = set(params.get("required", []))
        args = ", ".join(f"{name}{'' if name in required else '?'}" for name in params.get("properties", {}))
        lines.append(f"- {function['name']}({args}): {function['description']}")
    return "\n".join(lines)


def prompt_messages(messages: list[dict[str, Any]], schemas: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The conversation as an endpoint without tool support accepts it."""
    out: list[dict[str, Any]] = []
    for message in messages:
        role = message.get("role")
        if role == "system":
            out.append({"role": "system", "content": str(message.get("content") or "")
                        + PROTOCOL.format(tools=describe_tools(schemas))})
        elif role == "assistant" and message.get("tool_calls"):
            calls = [json.dumps({"name": c["function"]["name"], "arguments": _arguments(c["function"]["arguments"])})
                     for c in message["tool_calls"]]
            text = (str(message.get("content") or "") + "\n" if message.get("content") else "")
            out.append({"role": "assistant", "content": text + "\n".join(f"<tool_call>{c}</tool_call>" for c in calls)})
        elif role == "tool":
            out.append({"role": "user", "content": f"Tool result:\n{message.get('content', '')}"})
        else:
            out.append({"role": str(role), "content": str(message.get("content") or "")})
    return out


def _arguments(raw: str) -> Any:
    try:
        return json.loads(raw or "{}")
    except ValueError:
        return {}
