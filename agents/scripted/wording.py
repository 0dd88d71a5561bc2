"""Words the offline court's rules share: sums of money, exhibit names, the case's language."""

from __future__ import annotations

from agents.scripted.record import Exhibit


def money(value: float, zh: bool) -> str:
    number = f"{round(value):,}" if not zh else f"{round(value)}"
    return f"{number}元" if zh else f"RMB {number}"


def exhibit_text(item: Exhibit) -> str:
    return f"{item.name} {item.purpose}"


def exhibit_names(items: list[Exhibit], zh: bool) -> str:
    return ("、" if zh else ", ").join(f"{'《' if zh else ''}{item.name}{'》' if zh else ''}" for item in items)


def said(zh: bool, chinese: str, english: str) -> str:
    return chinese if zh else english
