"""A hit's trust tier: one for all a retriever finds, or one per source (`${trust.providers}`, from
configs/trust), so a transcript is `lead` in every mode, not only in the federated ones."""

from __future__ import annotations

from pydantic import Field

Trust = str | dict[str, str]


def trust_field() -> Trust:
    return Field(
        "reference", description="Trust tier of what it finds, or one per source: {transcripts: lead, ...}."
    )


def tier(trust: Trust, source: str) -> str:
    """The tier given, or the one given for the hit's source (reference when none is)."""
    return trust if isinstance(trust, str) else trust.get(source, "reference")
