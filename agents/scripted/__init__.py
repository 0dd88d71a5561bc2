"""The offline scripted backend: deterministic agents grounded in the case.

Every utterance is composed from the speaking seat's view only (what ``build_view`` lets it
see), in the case's language, following the procedural act the engine asks for. It is the
embedded default: demos without an API key, the test workhorse, and a procedural baseline
against which LLM agents are compared. The same view and case always give the same words.

``agent`` holds the seat and the one table from act id to function; the phrasebooks are
``consultation`` (LC), ``drafting`` (CD/DD, AD/AR), ``hearing`` (civil trials, and the acts a
criminal trial shares with them), ``criminal`` and ``objections``; ``context`` is what they
all read.
"""
