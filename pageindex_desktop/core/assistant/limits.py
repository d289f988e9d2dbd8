"""The bounds on one question, so no model, however slow or chatty, can hold the assistant for ever.

Each bound ends the question with one sentence that names the bound and how to raise it. Wall-clock bounds are
measured by the app (time.monotonic), so a server's keep-alive lines, which reset an HTTP read timeout, do not
extend them.
"""

from __future__ import annotations

from dataclasses import dataclass

HOW_TO_RAISE = "raise it in Model Settings ▸ Checks and limits, or with --{flag} on the command line"


@dataclass(frozen=True)
class Limits:
    """How far one question may go."""

    max_turns: int = 12  # model calls (each may run tools)
    turn_seconds: float = 180.0  # one model call, first byte to last, retries included
    question_seconds: float = 600.0  # the whole question
    answer_tokens: int = 2048  # what one model call may write
    question_tokens: int = 200_000  # prompt and answer tokens over all calls of the question

    def turn_message(self) -> str:
        """The sentence for a model call that ran out of time."""
        return (f"The model took more than {self.turn_seconds:.0f} s for one step, so the question was stopped; "
                f"a slow local model may need more time: {HOW_TO_RAISE.format(flag='turn-seconds')}.")

    def question_message(self) -> str:
        """The sentence for a question that ran out of time."""
        return (f"The question took more than {self.question_seconds:.0f} s, so it was stopped; ask a narrower "
                f"question, or {HOW_TO_RAISE.format(flag='question-seconds')}.")

    def turns_message(self) -> str:
        """The sentence for a question that used every turn."""
        return (f"Stopped after {self.max_turns} steps without a final answer; ask a narrower question, or "
                f"{HOW_TO_RAISE.format(flag='max-turns')}.")

    def length_message(self) -> str:
        """The sentence for an answer cut at the length cap."""
        return (f"The model's answer reached the length cap ({self.answer_tokens:,} tokens) and was cut; ask for "
                f"less, or {HOW_TO_RAISE.format(flag='answer-tokens')}.")

    def budget_message(self, used: int) -> str:
        """The sentence for a question that spent its token budget."""
        return (f"The question used {used:,} tokens, more than its budget of {self.question_tokens:,}, so it was "
                f"stopped; ask a narrower question, or {HOW_TO_RAISE.format(flag='token-budget')}.")
