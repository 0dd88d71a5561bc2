"""The seats' agents (scripted offline court, OpenAI-compatible models, the supervisor, personas,
prompts, strategies, skills) and the tools they call (statutes, citations, precedents,
exporters). They read the court's rules from ``court`` and are handed what the database holds
by ``trials``; nothing here imports ``trials``.
"""
