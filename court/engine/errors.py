"""The engine's error, below every module that raises it (the machine and the rules it calls)."""


class EngineError(RuntimeError):
    """A step was applied that the engine did not ask for."""
